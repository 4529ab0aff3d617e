import { withCallPolicies, type CallDefaults, type CallOptions } from './call-policies.js';
import { type WorkplanRecord } from './records.js';
import { type Transport } from './fetch-transport.js';

/** A resource as a change names it: the word of its path, `/api/v1/scale/{id}`; a service may serve others than the seed's two. */
export type ResourceName = 'scale' | 'costCenter' | (string & {});

/**
 * One successful write, as the service keeps it on record: what was done to which record,
 * when (`at`, ISO 8601), by whom (the key's name), the record after it (`data`, `null` after
 * a delete) and before it (`previous`, `null` before a create).
 */
export interface RecordChange<F extends string = string> {
  /** Opaque; changes come in the order they were committed, and `after` takes this id. */
  readonly id: string;
  readonly resource: ResourceName;
  readonly recordId: string;
  readonly action: 'create' | 'update' | 'delete';
  readonly at: string;
  readonly by: string;
  readonly data: WorkplanRecord<F> | null;
  readonly previous: WorkplanRecord<F> | null;
}

/** A change of the feed: its `resource` tells which text field its records have. */
export type Change = (RecordChange<'value'> & { readonly resource: 'scale' }) | (RecordChange<'title'> & { readonly resource: 'costCenter' });

/** Which changes to read: those after the change `after` (from the first one kept when left out), at most `limit` (1 to 1000). */
export interface ChangesRequest {
  readonly after?: string | undefined;
  readonly limit?: number | undefined;
  /** Seconds (1 to 30) the service may hold the answer while no change follows `after`: a long poll. */
  readonly wait?: number | undefined;
}

/** A read of the feed, with the options of any call; with `wait`, the time limit counts from the end of the wait. */
export type ChangesOptions = ChangesRequest & CallOptions;

/** Changes in commit order, and where to read on from. */
export interface ChangesPage {
  readonly changes: Change[];
  /** The `after` of the next read (the service's `Link: rel="next"`); undefined only when nothing was read yet from the start. */
  readonly next: string | undefined;
}

const CHANGES_PATH = '/api/v1/changes';

/** The path of a read of the feed, its parameters percent-encoded. */
export function changesPathOf({ after, limit, wait }: ChangesRequest): string {
  const parameters: [string, string | number | undefined][] = [['after', after], ['limit', limit], ['wait', wait]];
  const query = parameters.flatMap(([name, value]) => (value === undefined ? [] : [`${name}=${encodeURIComponent(value)}`]));
  return query.length === 0 ? CHANGES_PATH : `${CHANGES_PATH}?${query.join('&')}`;
}

/** Reads pages of the feed through `send`; the client's defaults apply, a long poll's wait added to its time limit. */
export function changesReader(send: Transport, defaults: CallDefaults = {}): (options?: ChangesOptions) => Promise<ChangesPage> {
  return async (options = {}) => {
    const { after, limit, wait, ...call } = options;
    const limitMs = call.timeoutMs ?? defaults.timeoutMs;
    // The service holds a long poll on purpose: only the time after the wait counts as slow.
    const timed = limitMs === undefined ? call : { ...call, timeoutMs: limitMs + (wait ?? 0) * 1000 };
    const answer = await withCallPolicies((signal) => send('GET', changesPathOf({ after, limit, wait }), undefined, undefined, signal), timed, defaults);
    // The service's data follows its OpenAPI schema of a change; the transport checked the envelope.
    const changes = answer.data as Change[];
    return { changes, next: afterOfLink(answer.next) ?? changes.at(-1)?.id ?? after };
  };
}

/** The `after` of a `next` link, `/api/v1/changes?after=42&...`. */
function afterOfLink(next: string | undefined): string | undefined {
  return next === undefined ? undefined : (new URL(next, 'http://service.invalid').searchParams.get('after') ?? undefined);
}
