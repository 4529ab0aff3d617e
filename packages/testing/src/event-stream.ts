import { request, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';

/** One event of a `text/event-stream`: its `id:` and `data:` fields, and its `event:` type when it names one. */
export interface ServerEvent {
  readonly id: string | undefined;
  readonly data: string;
  readonly event?: string;
}

/** A `text/event-stream` answer being read, as a browser's EventSource would. */
export interface EventStream {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The body, when the answer was not a stream (an error in the envelope). */
  readonly text: Promise<string>;
  /** Resolves the next `count` events, or rejects when they do not come within `timeoutMs`. */
  events(count: number, timeoutMs?: number): Promise<ServerEvent[]>;
  /** How many comment lines (heartbeats) came so far. */
  readonly comments: number;
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  /** Leaves, as a client that closes the page does. */
  close(): void;
}

/** Opens `path` with `Accept: text/event-stream` and reads the events as they come. */
export function openEventStream(baseUrl: string, path: string, headers: OutgoingHttpHeaders = {}): Promise<EventStream> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: url.hostname, port: url.port, path, headers: { accept: 'text/event-stream', ...headers }, agent: false }, (res) => {
      const read: ServerEvent[] = [];
      let waiting: (() => void) | undefined;
      let buffer = '';
      let comments = 0;
      let body = '';
      const ended = new Promise<void>((done) => {
        res.on('end', done);
        res.on('close', done);
      });
      // A stream cut by either side (the server drains, `close`) just ends: `ended` tells of it.
      res.on('error', () => undefined);
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = eventOf(block);
          if (event === undefined) comments += 1;
          else read.push(event);
        }
        waiting?.();
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        text: ended.then(() => body),
        get comments() {
          return comments;
        },
        ended,
        events: (count, timeoutMs = 5000) =>
          new Promise((found, fail) => {
            const timer = setTimeout(() => {
              fail(new Error(`${count} event(s) did not come within ${timeoutMs} ms; ${read.length} did`));
            }, timeoutMs);
            const check = () => {
              if (read.length < count) return;
              clearTimeout(timer);
              waiting = undefined;
              found(read.splice(0, count));
            };
            waiting = check;
            check();
          }),
        close: () => {
          outgoing.destroy();
        },
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The event of a block of lines; undefined for a block of comments only. */
function eventOf(block: string): ServerEvent | undefined {
  let id: string | undefined;
  let type: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /u, '');
    if (field === 'id') id = value;
    if (field === 'data') data.push(value);
    if (field === 'event') type = value;
  }
  if (id === undefined && data.length === 0) return undefined;
  return { id, data: data.join('\n'), ...(type === undefined ? {} : { event: type }) };
}
