import { createServer, type IncomingMessage } from 'node:http';
import { type AddressInfo } from 'node:net';

// Test-only (left out of the build): a stand-in for the service on a loopback port, answering
// each request as the test scripts it, to see what the client sends and how it reacts.

/** How to answer one request: a JSON body (or raw text) after an optional hold, or a connection cut without an answer. */
export interface FakeAnswer {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  readonly holdMs?: number;
  readonly hangUp?: boolean;
}

/** A request as the fake service saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly url: URL;
  readonly key: string | undefined;
  readonly accept: string | undefined;
}

export interface FakeService {
  readonly url: string;
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}

export async function fakeService(answer: (request: SeenRequest, index: number) => FakeAnswer): Promise<FakeService> {
  const seen: SeenRequest[] = [];
  const server = createServer((incoming: IncomingMessage, response) => {
    const request = {
      method: incoming.method ?? '',
      url: new URL(incoming.url ?? '/', 'http://fake.invalid'),
      key: incoming.headers.key as string | undefined,
      accept: incoming.headers.accept,
    };
    seen.push(request);
    const { status = 200, headers = {}, body, holdMs = 0, hangUp = false } = answer(request, seen.length - 1);
    const timer = setTimeout(() => {
      if (hangUp) {
        incoming.socket.destroy();
        return;
      }
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      response.end(body === undefined ? '' : JSON.stringify(body));
    }, holdMs);
    incoming.socket.on('close', () => { clearTimeout(timer); });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A change of a work schedule as the service writes it, numbered `id`. */
export function scaleChange(id: number, overrides: Record<string, unknown> = {}) {
  const at = new Date(Date.UTC(2026, 10, 25, 4, 0, id)).toISOString();
  const record = { id: '0193d3c4-0000-7000-8000-000000000001', value: `turno ${id}`, createdAt: at, updatedAt: at };
  return { id: String(id), resource: 'scale', recordId: record.id, action: 'create', at, by: 'Folha', data: record, previous: null, ...overrides };
}

/** The service's envelope of a page of changes, with the `Link` to the next. */
export function changesAnswer(changes: readonly { readonly id: string }[], after: string | undefined): FakeAnswer {
  const next = changes.at(-1)?.id ?? after ?? '0';
  return { body: { success: true, data: changes }, headers: { link: `</api/v1/changes?after=${next}&limit=100>; rel="next"` } };
}

/** The service's envelope of a failure. */
export function failureAnswer(status: number, code: string, headers: Record<string, string> = {}): FakeAnswer {
  return {
    status,
    headers,
    body: { success: false, message: 'Não foi possível retornar as alterações.', error: { code, detail: 'Detalhe.', requestId: 'r-1' } },
  };
}
