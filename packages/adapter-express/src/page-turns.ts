import { type ChangesJson } from './change-json.js';
import { type RecordChange } from './resources.js';

/** The most changes whose JSON one piece of a page writes. */
export const CHANGES_PER_TURN = 100;

/**
 * Turns of the event loop for the work of long answers, the pages of the changes feed and
 * of a record's history (up to a thousand changes each): that work is cut into pieces (a
 * page's read from the storage, the JSON of `CHANGES_PER_TURN` of its changes), and each
 * piece waits here for a turn of its own. node:sqlite reads, and the JSON is written, on the
 * event loop, so a page done at once holds it for the whole page, and many pages asked
 * together held up every other request (`/health/live` among them) behind all of them.
 *
 * Invariant: one piece a turn of the event loop, whatever the number of pages under way;
 * the requests that came meanwhile are served between two pieces. The pieces of pages
 * under way (`next`) go before the first pieces of pages not begun (`begin`), each kind in
 * the order asked: a page begun is finished before another's read, so few pages' changes
 * are held at once. A piece waiting when its request is called off (the client left, its
 * deadline answered) is dropped, so no turn goes to a page nobody waits for.
 */
export class PageTurns {
  readonly #underWay: Waiting[] = [];
  readonly #notBegun: Waiting[] = [];
  #due = false;

  /** A page's first piece: resolves in a turn of its own, after the pieces of the pages under way. */
  begin(signal?: AbortSignal): Promise<void> {
    return this.#wait(this.#notBegun, signal);
  }

  /** A later piece of a page under way: resolves in a turn of its own, before the pages not begun. */
  next(signal?: AbortSignal): Promise<void> {
    return this.#wait(this.#underWay, signal);
  }

  // The caller does its piece synchronously once this resolves; it rejects with the signal's reason once that aborts, while it waits.
  #wait(queue: Waiting[], signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted === true) {
        reject(signal.reason as Error);
        return;
      }
      const callOff = (): void => {
        const at = queue.indexOf(waiting);
        if (at >= 0) queue.splice(at, 1);
        reject(signal?.reason as Error);
      };
      const waiting: Waiting = {
        resolve: () => {
          signal?.removeEventListener('abort', callOff);
          resolve();
        },
      };
      signal?.addEventListener('abort', callOff, { once: true });
      queue.push(waiting);
      this.#armTurn();
    });
  }

  // A callback of setImmediate: the piece it lets go runs in the microtasks that follow it,
  // and the next is let go by an immediate set from here, which Node runs in the next turn.
  #armTurn(): void {
    if (this.#due || this.#underWay.length + this.#notBegun.length === 0) return;
    this.#due = true;
    setImmediate(() => {
      this.#due = false;
      (this.#underWay.shift() ?? this.#notBegun.shift())?.resolve();
      this.#armTurn();
    });
  }
}

interface Waiting {
  readonly resolve: () => void;
}

/**
 * The JSON of `changes`, as `json.many` writes it, as UTF-8 parts written a piece at a time:
 * `CHANGES_PER_TURN` changes in each turn `turns` gives.
 */
export async function changesJsonInTurns(changes: readonly RecordChange[], json: ChangesJson, turns: PageTurns, signal?: AbortSignal): Promise<Buffer[]> {
  const parts = [OPEN];
  for (let start = 0; start < changes.length; start += CHANGES_PER_TURN) {
    await turns.next(signal);
    const piece = changes.slice(start, start + CHANGES_PER_TURN);
    parts.push(Buffer.from(`${start === 0 ? '' : ','}${piece.map((change) => json.one(change)).join(',')}`));
  }
  parts.push(CLOSE);
  return parts;
}

const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');
