import pino from 'pino';

export type Logger = pino.Logger;

/** Structured JSON logs; one root logger, children per component. */
export function createLogger(level: string, name = 'catalog'): Logger {
  return pino({ name, level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime });
}
