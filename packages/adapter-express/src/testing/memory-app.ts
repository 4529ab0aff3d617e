import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { createMemoryStorage, type MemoryChangeLog } from '@workplan/adapter-memory';
import { createWorkplan, type Repositories, type WorkplanOptions } from '@workplan/core';
import { ApiKeys, keyEntryOf, type KeyEntry } from '../api-keys.js';
import { createHttpApp, type HttpAppOptions } from '../http-app.js';
import { httpResourcesOf } from '../resources.js';

// Test-only (left out of the build and the index): the adapter's tests serve a real app, on
// memory storage, over a real socket.

/** What a test changes of the app; whatever it leaves out is the plain default. */
export interface MemoryAppOptions {
  /** An API key the app takes: a `write` key, named by its fingerprint. */
  readonly key: string;
  /** Keys it takes besides `key`, with their names and roles. */
  readonly otherKeys?: readonly KeyEntry[];
  /** Storage, ids, page size: memory repositories (each one given stands in for its kind's) and change log, and random UUIDs, unless given. */
  readonly workplan?: Partial<Omit<WorkplanOptions, 'repositories'>> & { readonly repositories?: Partial<Repositories> };
  /** The HTTP app's options besides its resources and keys; ready unless `isReady` says otherwise. */
  readonly http?: Partial<Omit<HttpAppOptions, 'resources' | 'keys'>>;
}

/** An app listening on a free loopback port. */
export interface MemoryApp {
  readonly baseUrl: string;
  readonly server: Server;
  /** The change log of its memory storage (unless the test gave its own), for a test to prune. */
  readonly changes: MemoryChangeLog;
  /** The keys it takes, for a test to replace as a reload of the key file does. */
  readonly keys: ApiKeys;
  /** Stops listening and drops open connections; resolves once the server has closed. */
  close(): Promise<void>;
}

/** Serves a workplan over memory storage with the HTTP app on port 0 of 127.0.0.1. */
export async function startMemoryApp(options: MemoryAppOptions): Promise<MemoryApp> {
  const storage = createMemoryStorage();
  const workplan = createWorkplan({
    changes: storage.changes,
    ids: { next: () => crypto.randomUUID() },
    ...options.workplan,
    repositories: { ...storage.repositories, ...options.workplan?.repositories },
  });
  const keys = new ApiKeys([keyEntryOf(options.key), ...(options.otherKeys ?? [])]);
  const app = createHttpApp({
    resources: httpResourcesOf(workplan),
    changes: workplan.changes,
    keys,
    isReady: () => Promise.resolve(true),
    ...options.http,
  });
  const server = createServer(app).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    changes: storage.changes,
    keys,
    close: async () => {
      const closed = once(server, 'close');
      server.close();
      server.closeAllConnections();
      await closed;
    },
  };
}
