import { type AnsweredRequest } from '@workplan/adapter-express';
import { pino, type Logger } from 'pino';
import { type Config } from './config.js';

/**
 * JSON lines on stdout, written asynchronously so a slow terminal or pipe never blocks
 * the event loop; pretty only when a person is watching a terminal outside production.
 */
export function createLogger(config: Config): Logger {
  const pretty = process.stdout.isTTY && !config.production;
  if (pretty) return pino({ level: config.logLevel, transport: { target: 'pino-pretty' } });
  return pino({ level: config.logLevel }, pino.destination({ sync: false }));
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
