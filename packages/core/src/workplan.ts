import { Catalog } from './catalog.js';
import { ChangeFeed } from './change-feed.js';
import { mapKinds, type Catalogs, type KindName, type Repositories } from './kinds.js';
import { type ChangeLog, type Clock, type IdGenerator, type RecordRepository, systemClock } from './ports.js';
import { type RecordKind } from './record.js';
import { createUuidV7Generator } from './uuid-v7.js';

/** The default and usual largest page of a list. */
export const DEFAULT_MAX_PAGE_SIZE = 1000;

/**
 * The storage of every kind of record (`workSchedules`, `costCenters`) and the change log
 * its repositories write to (`changes`), and the shared parts: `ids` defaults to a
 * generator of its own of UUID version 7 ids made with the Web Crypto API, `clock` to the system's.
 */
export type WorkplanOptions = Repositories & {
  readonly changes: ChangeLog;
  readonly ids?: IdGenerator;
  readonly clock?: Clock;
  readonly maxPageSize?: number;
};

/** Every catalog of the domain (`workSchedules` and `costCenters`), and the feed of their changes. */
export type Workplan = Catalogs & { readonly changes: ChangeFeed };

/** Builds the work schedule and cost center catalogs over the given storage. */
export function createWorkplan(options: WorkplanOptions): Workplan {
  const shared = {
    ids: options.ids ?? createUuidV7Generator(),
    clock: options.clock ?? systemClock,
    maxPageSize: options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE,
    changes: options.changes,
  };
  const catalogOf = <F extends string>(kind: RecordKind<F>, name: KindName): Catalog<F> =>
    // The repository under a kind's name is of that kind (Repositories says so); the compiler
    // cannot carry the field type through the name.
    new Catalog({ ...shared, kind, repository: options[name] as unknown as RecordRepository<F> });
  const catalogs = mapKinds(catalogOf) as unknown as Catalogs;
  return { ...catalogs, changes: new ChangeFeed(options.changes, shared.clock) };
}
