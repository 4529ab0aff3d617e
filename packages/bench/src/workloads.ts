import { randomBytes } from 'node:crypto';
import type autocannon from 'autocannon';

/** The five operations measured, in the order they run. */
export const OPERATIONS = ['find', 'update', 'list', 'create', 'delete'] as const;
export type Operation = (typeof OPERATIONS)[number];

const JSON_BODY = { 'content-type': 'application/json' };
// One prefix per bench run, so values stay unique even on a MongoDB that kept an old run's records.
const RUN = randomBytes(4).toString('hex');
let counter = 0;

/** A value no other request of this run has sent: no create or update is a 409. */
export function uniqueValue(): string {
  counter += 1;
  return `bench ${RUN} ${counter}`;
}

/** A random one of `ids`. */
const pick = (ids: readonly string[]): string => ids[Math.floor(Math.random() * ids.length)] ?? 'no-ids';

/** The path of one record. */
const recordPath = (id: string): string => `/api/v1/scale/${id}`;

/** A create's path and JSON body, of a value never sent before: autocannon's and the paced load's. */
export function createOfNewValue(): { readonly method: 'POST'; readonly path: string; readonly body: string } {
  return { method: 'POST', path: '/api/v1/scale', body: JSON.stringify({ value: uniqueValue() }) };
}

/** A find's path, of a random existing id: autocannon's and the paced load's. */
export function findOfAnyId(ids: readonly string[]): { readonly method: 'GET'; readonly path: string } {
  return { method: 'GET', path: recordPath(pick(ids)) };
}

/** GET /scale/{id} of a random existing id. */
export function findRequests(ids: readonly string[]): autocannon.Request[] {
  return [{ method: 'GET', setupRequest: (request) => ({ ...request, path: findOfAnyId(ids).path }) }];
}

/** PUT /scale/{id} of a random existing id to a value never sent before. */
export function updateRequests(ids: readonly string[]): autocannon.Request[] {
  return [
    {
      method: 'PUT',
      headers: JSON_BODY,
      setupRequest: (request) => ({
        ...request,
        path: recordPath(pick(ids)),
        body: JSON.stringify({ value: uniqueValue() }),
      }),
    },
  ];
}

/** GET /scales/{skip}/{limit}: the same page every time. */
export function listRequests(skip: number, limit: number): autocannon.Request[] {
  return [{ method: 'GET', path: `/api/v1/scales/${skip}/${limit}` }];
}

/** POST /scale with a value never sent before; the ids created go into `created`. */
export function createRequests(created: string[]): autocannon.Request[] {
  return [
    {
      method: 'POST',
      path: '/api/v1/scale',
      headers: JSON_BODY,
      setupRequest: (request) => ({ ...request, body: createOfNewValue().body }),
      onResponse: (status, body) => {
        const id = status === 201 ? idIn(body) : undefined;
        if (id !== undefined) created.push(id);
      },
    },
  ];
}

/** DELETE /scale/{id}, taking each id from `pool` once: run it with `amount` = the pool's size. */
export function deleteRequests(pool: string[]): autocannon.Request[] {
  // An empty pool would mean a bug in the bench; the 404 it gives shows in non-2xx.
  return [{ method: 'DELETE', setupRequest: (request) => ({ ...request, path: recordPath(pool.pop() ?? 'pool-empty') }) }];
}

interface SoakContext {
  created?: string;
}

/**
 * The soak's mix, per connection: `reads` finds of seeded ids, then a create of a unique
 * value and the delete of the record it made, so the data set stays the same size.
 */
export function soakRequests(ids: readonly string[], reads: number): autocannon.Request[] {
  const [find] = findRequests(ids);
  const [create] = createRequests([]);
  if (find === undefined || create === undefined) throw new Error('no request to repeat');
  return [
    ...Array.from({ length: reads }, () => find),
    {
      ...create,
      onResponse: (status, body, context) => {
        const id = status === 201 ? idIn(body) : undefined;
        if (id !== undefined) (context as SoakContext).created = id;
      },
    },
    {
      method: 'DELETE',
      setupRequest: (request, context) => ({ ...request, path: recordPath((context as SoakContext).created ?? 'create-failed') }),
    },
  ];
}

/** The `id` of the record in an envelope, read without parsing the whole body. */
export function idIn(body: string): string | undefined {
  const start = body.indexOf('"id":"');
  if (start < 0) return undefined;
  const end = body.indexOf('"', start + 6);
  return end < 0 ? undefined : body.slice(start + 6, end);
}
