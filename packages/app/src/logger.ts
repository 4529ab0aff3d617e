import { type AnsweredRequest } from '@workplan/adapter-express';
import { pino, type Logger } from 'pino';
import sonicBoom from 'sonic-boom';
import { type Config } from './config.js';
import { LogWriter } from './log-writer.js';

/** Lines kept while stdout cannot be written (a full disk), before new ones are dropped. */
const LOG_BACKLOG_BYTES = 16 * 1024 * 1024;

/**
 * Where JSON log lines go: stdout, asynchronously so a slow terminal or pipe never blocks the
 * event loop. `null`
 * when a person is watching a terminal outside production: then lines are pretty instead.
 */
export function createLogOutput(config: Config): LogWriter | null {
  if (process.stdout.isTTY && !config.production) return null;
  // sonic-boom itself rather than `pino.destination`, which would also flush it on exit,
  // past LogWriter: a flush that waits for room on a full disk for as long as it is full.
  return new LogWriter(new sonicBoom.SonicBoom({ fd: 1, sync: false, maxLength: LOG_BACKLOG_BYTES }));
}

/** The service's logger, writing to `output` (pretty on the terminal when it is `null`). */
export function createLogger(config: Config, output: LogWriter | null): Logger {
  if (output === null) return pino({ level: config.logLevel, transport: { target: 'pino-pretty' } });
  return pino({ level: config.logLevel }, output);
}

/**
 * The logger of the service's own life: start, configuration warnings, key reloads, stop.
 * It writes at `info` and above whatever LOG_LEVEL says (only a more verbose level lowers
 * it), so an operator quieting request lines still sees the process start and stop.
 */
export function lifecycleLogger(logger: Logger): Logger {
  return logger.isLevelEnabled('info') ? logger : logger.child({}, { level: 'info' });
}

/** One line per answered request: what an operator needs, the key's name but never the key, never a raw path. */
export function logAnswered(logger: Logger, answered: AnsweredRequest): void {
  const level = answered.status >= 500 ? 'error' : 'info';
  logger[level](
    {
      requestId: answered.requestId,
      method: answered.method,
      route: answered.route,
      status: answered.status,
      durationMs: Math.round(answered.durationMs * 100) / 100,
      key: answered.keyName,
    },
    'request',
  );
}
