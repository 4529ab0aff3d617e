import { Catalog } from './catalog.js';
import { ChangeFeed } from './change-feed.js';
import { seedKinds, type KindDescription, type Kinds, type SeedKinds } from './kind-description.js';
import { mapKinds, type Catalogs, type Repositories } from './kinds.js';
import { type ChangeLog, type Clock, type GiveWay, type IdGenerator, type RecordRepository, systemClock } from './ports.js';
import { createUuidV7Generator } from './uuid-v7.js';

/** The default and usual largest page of a list. */
export const DEFAULT_MAX_PAGE_SIZE = 1000;

/**
 * The storage of every kind of record (`repositories`: `workSchedules`, `costCenters` for
 * the seed's kinds) and the change log they write to (`changes`), and the shared parts:
 * `ids` defaults to a generator of its own of UUID version 7 ids made with the Web Crypto
 * API, `clock` to the system's.
 */
export interface WorkplanOptions<K extends Kinds = SeedKinds> {
  readonly repositories: Repositories<K>;
  readonly changes: ChangeLog;
  readonly ids?: IdGenerator;
  readonly clock?: Clock;
  readonly maxPageSize?: number;
  /** How the feed's shared reader gives way between slices of followers (`ChangeTail`); by default it does not. */
  readonly giveWay?: GiveWay;
}

/** Every catalog of the domain (`workSchedules` and `costCenters` for the seed), the kinds they serve, and the feed of their changes. */
export type Workplan<K extends Kinds = SeedKinds> = Catalogs<K> & { readonly changes: ChangeFeed; readonly kinds: K };

/** The options as the overloads' implementation reads them: each kind's repository under its name. */
type AnyWorkplanOptions = Omit<WorkplanOptions, 'repositories'> & { readonly kinds?: Kinds; readonly repositories: Readonly<Record<string, unknown>> };

// A catalog is kept under its kind's name beside these: no kind may take one.
const OWN_MEMBERS: readonly string[] = Object.freeze(['changes', 'kinds']);

/** Builds a catalog for each of `kinds` over the given storage. */
export function createWorkplan<K extends Kinds>(options: WorkplanOptions<K> & { readonly kinds: K }): Workplan<K>;
/** Builds the catalogs of the seed's kinds (work schedules and cost centers) over the given storage. */
export function createWorkplan(options: WorkplanOptions & { readonly kinds?: SeedKinds }): Workplan;
export function createWorkplan(options: AnyWorkplanOptions): object {
  const kinds = options.kinds ?? seedKinds;
  const taken = Object.keys(kinds).find((name) => OWN_MEMBERS.includes(name));
  if (taken !== undefined) throw new TypeError(`a kind of record may not be named ${JSON.stringify(taken)}`);
  checkApart(Object.values(kinds));
  const shared = {
    ids: options.ids ?? createUuidV7Generator(),
    clock: options.clock ?? systemClock,
    maxPageSize: options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE,
    changes: options.changes,
  };
  const catalogOf = (kind: KindDescription, name: string): Catalog<string> => {
    // The overloads put the repository of each kind under the kind's name.
    const repository = options.repositories[name] as RecordRepository<string> | undefined;
    if (repository === undefined) throw new TypeError(`no repository was given for the kind ${JSON.stringify(name)}`);
    return new Catalog({ ...shared, kind, repository });
  };
  return { ...mapKinds(kinds, catalogOf), kinds, changes: new ChangeFeed(options.changes, shared.clock, options.giveWay) };
}

/**
 * Refuses kinds that share a word their changes, routes, document or console tell them
 * apart by: a change names its kind, a path word leads to one kind, a tab's address and a
 * schema name are one kind's.
 */
function checkApart(kinds: readonly KindDescription[]): void {
  const apart: readonly ((kind: KindDescription) => readonly string[])[] = [
    (kind) => [kind.name],
    (kind) => [kind.singular, kind.plural],
    (kind) => [kind.slug],
    (kind) => [kind.schema],
  ];
  for (const wordsOf of apart) {
    const seen = new Set<string>();
    for (const word of kinds.flatMap((kind) => [...new Set(wordsOf(kind))])) {
      if (seen.has(word)) throw new TypeError(`${JSON.stringify(word)} names two kinds of record: each kind needs words of its own`);
      seen.add(word);
    }
  }
}
