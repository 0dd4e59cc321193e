import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import type { Logger } from '../log.js';

/** Bolt logs through this into pino, so its lines share our format and redaction. */
export function boltLogger(logger: Logger): BoltLogger {
  const child = logger.child({ component: 'bolt' });
  const join = (parts: unknown[]) =>
    parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(' ');
  return {
    debug: (...parts: unknown[]) => child.debug(join(parts)),
    info: (...parts: unknown[]) => child.info(join(parts)),
    warn: (...parts: unknown[]) => child.warn(join(parts)),
    error: (...parts: unknown[]) => child.error(join(parts)),
    setLevel: () => {},
    getLevel: () => {
      const level = child.level;
      if (level === 'debug' || level === 'trace') return LogLevel.DEBUG;
      if (level === 'info') return LogLevel.INFO;
      if (level === 'warn') return LogLevel.WARN;
      return LogLevel.ERROR;
    },
    setName: () => {},
  };
}
