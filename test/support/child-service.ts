/**
 * `bin/catalog.js serve` as a child process, run the way `npm start` runs it: its output read line by
 * line, waits on lines it writes (never on time), and a stop by a signal whose exit is awaited.
 * `terminal`: under a pseudo-terminal (util-linux `script`), the child leading its own process group
 * as a shell's foreground job does, so a signal to the group is what Ctrl-C sends.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const BIN = path.resolve(__dirname, '../../bin/catalog.js');

export interface ChildService {
  child: ChildProcess;
  /** every line written so far (standard output and, unless under a terminal, standard error), colours removed */
  lines(): string[];
  /** what it wrote to standard error (nothing under a terminal, where both go to the terminal) */
  stderr(): string;
  /** resolves with the first line matching `pattern`; rejects when the process exits first or after `timeoutMs` */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** `signal` to the process (or, under a terminal, to its whole process group, as Ctrl-C does); resolves on exit */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** After a test, passed or failed: SIGTERM (an orderly stop, its database too), SIGKILL if that hangs. */
  cleanUp(): Promise<void>;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

export function startChildService(env: Record<string, string>, opts: { terminal?: boolean; args?: string[] } = {}): ChildService {
  // A working directory of its own: bin/catalog.js reads a .env there.
  const cwd = mkdtempSync(path.join(tmpdir(), 'catalog-child-'));
  const command = [process.execPath, BIN, 'serve', ...(opts.args ?? [])];
  const quoted = command.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  // `script` gives the command a terminal and makes it a session leader; `exec` keeps its pid, so the
  // pid is the foreground process group's id. detached: the test's own group is never signalled.
  const child = opts.terminal
    ? spawn('script', ['-qfec', `exec ${quoted}`, '/dev/null'], { cwd, env: { ...env, TERM: 'xterm-256color' }, stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn(command[0]!, command.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const lines: string[] = [];
  let err = '';
  const waiters: { pattern: RegExp; resolve: (l: string) => void }[] = [];
  let partial = '';
  const take = (chunk: Buffer) => {
    partial += chunk.toString('utf8');
    const parts = partial.split(/\r?\n/);
    partial = parts.pop()!;
    for (const raw of parts) {
      const line = raw.replace(ANSI, '').replace(/\r/g, '');
      lines.push(line);
      for (const w of [...waiters]) {
        if (w.pattern.test(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString('utf8');
    take(d);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      rmSync(cwd, { recursive: true, force: true });
      resolve({ code, signal });
    }),
  );
  let leaderPid: number | undefined;
  return {
    child,
    lines: () => [...lines],
    stderr: () => err,
    waitForLine(pattern, timeoutMs = 120_000) {
      const found = lines.find((l) => pattern.test(l));
      if (found !== undefined) return Promise.resolve(found);
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; it wrote:\n${lines.join('\n')}`)), timeoutMs);
        const w = {
          pattern,
          resolve: (l: string) => {
            clearTimeout(timer);
            resolve(l);
          },
        };
        waiters.push(w);
        void exited.then(({ code, signal }) => {
          if (!waiters.includes(w)) return;
          clearTimeout(timer);
          reject(new Error(`exited (${code ?? signal}) before a line matching ${pattern}; it wrote:\n${lines.join('\n')}`));
        });
      });
    },
    exited,
    async stop(signal = 'SIGINT') {
      if (child.exitCode === null && child.signalCode === null) {
        if (opts.terminal) {
          // The foreground group under script's terminal: script's child (the service itself, by `exec`).
          leaderPid ??= foregroundOf(child.pid!);
          process.kill(-leaderPid, signal);
        } else {
          process.kill(-child.pid!, signal);
        }
      }
      return exited;
    },
    async cleanUp() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const stopped = this.stop('SIGTERM');
      const timer = setTimeout(() => void this.stop('SIGKILL'), 60_000);
      await stopped;
      clearTimeout(timer);
    },
  };
}

/** The pid of `script`'s child: the session leader on its terminal, whose group the terminal signals. */
function foregroundOf(scriptPid: number): number {
  const out = execFileSync('ps', ['-o', 'pid=', '--ppid', String(scriptPid)], { encoding: 'utf8' }).trim();
  const pid = Number(out.split(/\s+/)[0]);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`script (${scriptPid}) has no child`);
  return pid;
}
