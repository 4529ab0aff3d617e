import { type AnsweredRequest } from '@workplan/adapter-express';
import { pino, type Logger } from 'pino';
import { type Config } from './config.js';
import { LineBatch } from './log-batch.js';

/** About 16 KiB or a quarter of a second of lines, whichever comes first, per write. */
const LOG_BATCH = { maxChars: 16_384, flushEveryMs: 250 } as const;

/** JSON lines on stdout; pretty only when a person is watching a terminal outside production. */
export function createLogger(config: Config): Logger {
  const pretty = process.stdout.isTTY && !config.production;
  if (pretty) return pino({ level: config.logLevel, transport: { target: 'pino-pretty' } });
  // Asynchronous, so a slow terminal or pipe never blocks the event loop; in batches, so
  // a request's line costs little more than making it.
  const stdout = pino.destination({ sync: false });
  return pino({ level: config.logLevel }, new LineBatch(stdout, LOG_BATCH));
}

/** One line per answered request: what an operator needs, never a key or a raw path. */
export function logAnswered(logger: Logger, answered: AnsweredRequest): void {
  const level = answered.status >= 500 ? 'error' : 'info';
  logger[level](
    {
      requestId: answered.requestId,
      method: answered.method,
      route: answered.route,
      status: answered.status,
      durationMs: Math.round(answered.durationMs * 100) / 100,
      key: answered.keyFingerprint,
    },
    'request',
  );
}
