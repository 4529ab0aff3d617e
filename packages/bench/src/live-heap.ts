/**
 * The heap a process still holds after a full collection, read over the inspector it was
 * started with (`--inspect=127.0.0.1:PORT`): what a leak grows. RSS alone cannot tell a leak
 * from garbage waiting for the next full collection: under the soak's load the app's RSS
 * climbs about 0.27 MB a second for some 100 s, then falls by 40 MB at once (a 120 s trace),
 * so a 60 s window saw only the climb.
 */
export async function liveHeapMb(inspectPort: number): Promise<number> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json()) as { webSocketDebuggerUrl?: string }[];
  const url = targets[0]?.webSocketDebuggerUrl;
  if (url === undefined) throw new Error(`no inspector target on port ${inspectPort}`);
  const session = await InspectorSession.open(url);
  try {
    await session.call('HeapProfiler.collectGarbage');
    const answer = await session.call('Runtime.evaluate', { expression: 'process.memoryUsage().heapUsed', returnByValue: true });
    const value = (answer as { result?: { value?: unknown } }).result?.value;
    if (typeof value !== 'number') throw new Error('the inspector answered no heap size');
    return value / 2 ** 20;
  } finally {
    session.close();
  }
}

/** One DevTools protocol connection: a call sends a command and resolves with its result. */
class InspectorSession {
  readonly #socket: WebSocket;
  readonly #pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  #nextId = 1;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message?: string } };
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
      socket.addEventListener('open', () => { resolve(); }, { once: true });
      socket.addEventListener('error', () => { reject(new Error(`could not reach the inspector at ${url}`)); }, { once: true });
    });
    return new InspectorSession(socket);
  }

  async call(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.#nextId++;
    const result = new Promise<unknown>((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    this.#socket.send(JSON.stringify({ id, method, params }));
    return result;
  }

  close(): void {
    this.#socket.close();
  }
}
