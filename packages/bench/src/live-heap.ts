/** How long the inspector may take over one step: a full collection of a small heap takes well under a second. */
const STEP_TIMEOUT_MS = 15_000;

/**
 * The heap a process still holds after a full collection, read over the inspector it was
 * started with (`--inspect=127.0.0.1:PORT`): what a leak grows. RSS, and the heap in use at
 * any moment, also count the garbage waiting for the next full collection.
 */
export async function liveHeapMb(inspectPort: number): Promise<number> {
  const list = await fetch(`http://127.0.0.1:${inspectPort}/json/list`, { signal: AbortSignal.timeout(STEP_TIMEOUT_MS) });
  const targets = (await list.json()) as { webSocketDebuggerUrl?: string }[];
  const url = targets[0]?.webSocketDebuggerUrl;
  if (url === undefined) throw new Error(`no inspector target on port ${inspectPort}`);
  const session = await InspectorSession.open(url);
  try {
    await session.call('HeapProfiler.collectGarbage');
    const answer = await session.call('Runtime.getHeapUsage');
    const used = (answer as { usedSize?: unknown }).usedSize;
    if (typeof used !== 'number') throw new Error('the inspector answered no heap size');
    return used / 2 ** 20;
  } finally {
    session.close();
  }
}

interface Pending {
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
}

/** One DevTools protocol connection: a call sends a command and settles with its answer, or fails in time. */
class InspectorSession {
  readonly #socket: WebSocket;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.addEventListener('message', (event) => {
      let message: { id?: number; result?: unknown; error?: { message?: string } };
      try {
        message = JSON.parse(String(event.data)) as typeof message;
      } catch {
        return; // not an answer to a call: a call that waits for it times out
      }
      const pending = message.id === undefined ? undefined : this.#pending.get(message.id);
      if (pending === undefined || message.id === undefined) return;
      this.#pending.delete(message.id);
      if (message.error === undefined) pending.resolve(message.result);
      else pending.reject(new Error(`inspector: ${message.error.message ?? 'error'}`));
    });
    socket.addEventListener('close', () => {
      for (const pending of this.#pending.values()) pending.reject(new Error('inspector connection closed'));
      this.#pending.clear();
    });
  }

  static async open(url: string): Promise<InspectorSession> {
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.close();
        reject(new Error(`the inspector at ${url} did not answer in ${STEP_TIMEOUT_MS} ms`));
      }, STEP_TIMEOUT_MS);
      socket.addEventListener('open', () => { clearTimeout(timer); resolve(); }, { once: true });
      socket.addEventListener('error', () => { clearTimeout(timer); reject(new Error(`could not reach the inspector at ${url}`)); }, { once: true });
    });
    return new InspectorSession(socket);
  }

  async call(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    // A closed socket drops what is sent without a word: the call would wait for ever.
    if (this.#socket.readyState !== WebSocket.OPEN) throw new Error(`inspector connection closed before ${method}`);
    const id = this.#nextId++;
    const answer = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`the inspector did not answer ${method} in ${STEP_TIMEOUT_MS} ms`));
      }, STEP_TIMEOUT_MS);
      const settled = (settle: () => void) => { clearTimeout(timer); settle(); };
      const pending: Pending = {
        resolve: (result) => { settled(() => { resolve(result); }); },
        reject: (error) => { settled(() => { reject(error); }); },
      };
      this.#pending.set(id, pending);
      try {
        this.#socket.send(JSON.stringify({ id, method, params }));
      } catch (error) {
        this.#pending.delete(id);
        pending.reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    return answer;
  }

  close(): void {
    this.#socket.close();
  }
}
