import { type Catalog } from './catalog.js';
import { type RecordRepository } from './ports.js';
import { costCenter, workSchedule, type RecordKind } from './record.js';

/**
 * Every kind of record, by the name its catalog and storage go by. A new resource is one
 * more entry here (and one description in each adapter that names it to people).
 */
export const recordKinds = Object.freeze({ workSchedules: workSchedule, costCenters: costCenter } as const);

/** The kind whose `RecordKind.name` is `name` (as a change keeps it), if any. */
export function kindNamed(name: string): RecordKind<string> | undefined {
  return Object.values(recordKinds).find((kind: RecordKind<string>) => kind.name === name);
}

/** The name of a kind of record: `workSchedules` or `costCenters`. */
export type KindName = keyof typeof recordKinds;

/** The text field of the kind named `K`. */
export type FieldOf<K extends KindName> = (typeof recordKinds)[K]['field'];

/** One repository per kind of record. */
export type Repositories = { readonly [K in KindName]: RecordRepository<FieldOf<K>> };

/** One catalog per kind of record. */
export type Catalogs = { readonly [K in KindName]: Catalog<FieldOf<K>> };

/** Makes one repository per kind of record, each typed by its kind's field. */
export function repositoriesOf(
  make: <F extends string>(kind: RecordKind<F>, name: KindName) => RecordRepository<F>,
): Repositories {
  return mapKinds(make);
}

/** The same repositories, each passed through `wrap` (such as a gate that waits for the storage). */
export function wrapRepositories(
  repositories: Repositories,
  wrap: <F extends string>(repository: RecordRepository<F>) => RecordRepository<F>,
): Repositories {
  // Under each name is the repository of that name's kind, so its field is the kind's field.
  return repositoriesOf(<F extends string>(_kind: RecordKind<F>, name: KindName) =>
    wrap(repositories[name] as unknown as RecordRepository<F>),
  );
}

/** Applies `make` to every kind of record, keeping each result under the kind's name. */
export function mapKinds<T>(make: <F extends string>(kind: RecordKind<F>, name: KindName) => T): Record<KindName, T> {
  const entries = Object.entries(recordKinds).map(([name, kind]) => [name, make(kind, name as KindName)]);
  return Object.fromEntries(entries) as Record<KindName, T>;
}
