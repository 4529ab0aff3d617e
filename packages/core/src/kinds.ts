import { type Catalog } from './catalog.js';
import { type KindDescription, type Kinds, type SeedKinds } from './kind-description.js';
import { type RecordRepository } from './ports.js';

/** The kind among `kinds` whose `name` is `name` (as a change keeps it), if any. */
export function kindNamed(kinds: Kinds, name: string): KindDescription | undefined {
  return Object.values(kinds).find((kind) => kind.name === name);
}

/** The name of a kind of record among `K`: `workSchedules` or `costCenters` for the seed. */
export type KindName<K extends Kinds = SeedKinds> = keyof K & string;

/** The text field of a kind. */
export type FieldOf<D extends KindDescription> = D['field'];

/** One repository per kind of record. */
export type Repositories<K extends Kinds = SeedKinds> = { readonly [N in KindName<K>]: RecordRepository<FieldOf<K[N]>> };

/** One catalog per kind of record. */
export type Catalogs<K extends Kinds = SeedKinds> = { readonly [N in KindName<K>]: Catalog<FieldOf<K[N]>> };

/** Makes one repository per kind of record, each typed by its kind's field. */
export function repositoriesOf<K extends Kinds>(
  kinds: K,
  make: <F extends string>(kind: KindDescription<F>, name: string) => RecordRepository<F>,
): Repositories<K> {
  return mapKinds(kinds, make);
}

/** The same repositories, each passed through `wrap` (such as a gate that waits for the storage). */
export function wrapRepositories<K extends Kinds>(
  repositories: Repositories<K>,
  wrap: <F extends string>(repository: RecordRepository<F>) => RecordRepository<F>,
): Repositories<K> {
  const entries = Object.entries<RecordRepository<string>>(repositories).map(([name, repository]) => [name, wrap(repository)]);
  // Each repository stays under its name, only wrapped, so keeps its kind's field.
  return Object.fromEntries(entries) as Repositories<K>;
}

/** Applies `make` to every kind of `kinds`, keeping each result under the kind's name. */
export function mapKinds<K extends Kinds, T>(kinds: K, make: (kind: K[KindName<K>], name: KindName<K>) => T): Record<KindName<K>, T> {
  const entries = Object.keys(kinds).map((name: KindName<K>) => [name, make(kinds[name], name)]);
  return Object.fromEntries(entries) as Record<KindName<K>, T>;
}
