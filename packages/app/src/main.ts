#!/usr/bin/env node
// What `workplan`, `pnpm start` and the image run. Node links every static import of a module
// graph before it runs any of its code, so a command that failed to load (on a Node without
// node:sqlite, @workplan/adapter-sqlite refuses it, naming the Node it needs) would end in a
// stack trace; imported here, its failure is told in one line.
import('./command.js').catch((error: unknown) => {
  console.error(`workplan did not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
