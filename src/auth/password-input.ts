/**
 * Reading a new password on the command line without it showing anywhere: not in the shell history
 * (no argument takes it), not on the screen (the prompt echoes nothing), not in the output.
 */
import type { ReadStream } from 'node:tty';
import { AppError } from '../platform/errors';

/** More than any accepted password (1024 characters); stops a mistaken pipe from being read whole. */
const MAX_INPUT_BYTES = 8192;

/**
 * `--password-stdin`: everything on standard input, less one trailing line break (`echo`, here-strings
 * and files end with one; it is never part of the password).
 */
export async function readPasswordFromStream(input: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > MAX_INPUT_BYTES) throw AppError.badRequest('USER.PASSWORD_REFUSED', `standard input holds more than ${MAX_INPUT_BYTES} bytes: not a password`);
    chunks.push(b);
  }
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** Asks on the terminal with echo off; Ctrl-C or Ctrl-D gives up. */
export function promptHidden(question: string, input: ReadStream, output: NodeJS.WritableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let value = '';
    // Echo off before the question shows: an answer typed (or pasted) at once is never echoed either.
    input.setRawMode(true);
    input.setEncoding('utf8');
    output.write(question);
    input.resume();
    const done = (err: Error | null) => {
      input.setRawMode(false);
      input.pause();
      input.removeListener('data', onData);
      output.write('\n');
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return done(null);
        if (ch === '\u0003' || ch === '\u0004') return done(AppError.badRequest('USER.CANCELLED', 'cancelled; nothing changed'));
        if (ch === '\u007f' || ch === '\b') value = Array.from(value).slice(0, -1).join('');
        else if (ch >= ' ') value += ch;
      }
    };
    input.on('data', onData);
  });
}
