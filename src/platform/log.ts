import pino from 'pino';

export type Logger = pino.Logger;

/**
 * Headers that carry credentials: the session cookies (access and refresh tokens), a bearer token,
 * and the cookies a login sets. A log line never holds them, whoever logs a request or a response.
 */
export const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
  'headers["set-cookie"]',
];

/** Structured JSON logs; one root logger, children per component. `destination`: where lines go (stdout). */
export function createLogger(level: string, name = 'catalog', destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    name,
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
