// What `import '@workplan/adapter-sqlite'` runs; its types are index.ts's. Node links every
// static import of a module graph before it runs any of its code, so on a Node without
// node:sqlite a static import of index.js would end in ERR_UNKNOWN_BUILTIN_MODULE, naming
// neither the Node needed nor the one found. This module checks first and only then loads
// the package, so the caller gets an error saying both.
import { unsupportedNode } from './node-support.js';

const unsupported = unsupportedNode(process.versions.node);
if (unsupported !== undefined) throw new Error(unsupported);

export const {
  backupDatabase,
  DEFAULT_BUSY_TIMEOUT_MS,
  SCHEMA_VERSION,
  SqliteHitCounter,
  SqliteOpenError,
  SqliteRecordRepository,
  SqliteStorage,
} = await import('./index.js');
