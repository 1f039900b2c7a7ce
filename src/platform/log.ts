import pino from 'pino';

export type Logger = pino.Logger;

/**
 * Headers that carry credentials: the session cookies (access and refresh tokens), a bearer token,
 * and the cookies a login sets. A log line never holds them, whoever logs a request or a response.
 */
export const REDACTED_PATHS = ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', 'headers.cookie', 'headers.authorization', 'headers["set-cookie"]'];

/** Fields of a request's log line (src/platform/http/app.ts) that its message already says. */
const REQUEST_FIELDS = ['req', 'res', 'responseTime', 'cached'];

/**
 * One root logger, children per component. `destination`: where lines go (stdout). `format`: JSON
 * lines for a collector, or readable lines for a person at a terminal (pino-pretty, written
 * synchronously so nothing is lost when the process exits), where a request is its message alone
 * (`GET /admin/ 200 3 ms`) and other fields follow on the same line.
 */
export function createLogger(level: string, name = 'catalog', destination?: pino.DestinationStream, format: 'json' | 'pretty' = 'json'): Logger {
  const options: pino.LoggerOptions = {
    name,
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  if (format === 'pretty') {
    // Loaded only when asked for: a production process never needs it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pretty = require('pino-pretty') as typeof import('pino-pretty');
    return pino(
      options,
      pretty({
        destination: destination ?? 1,
        sync: true,
        translateTime: 'SYS:HH:MM:ss',
        ignore: ['pid', 'hostname', 'name', ...REQUEST_FIELDS].join(','),
        singleLine: true,
      }),
    );
  }
  return destination ? pino(options, destination) : pino(options);
}
