/** `catalog history family|good|link <id> [--at T] [--from T --to T] [--json]`: the audit history from the command line. */
import type { Command } from 'commander';
import { AppError } from '../../platform/errors';
import type { HistoryDeps, HistoryItem, SubjectKind } from './history';
import { historyTable, summariseChanges } from './format';
import { answerHistory } from './handle';

const KINDS: readonly SubjectKind[] = ['family', 'good', 'link'];

interface Options {
  at?: string;
  from?: string;
  to?: string;
  json?: boolean;
}

/** The answer the HTTP route gives, as JSON or as text; the exit code says what went wrong (1: not found, 2: bad arguments). */
export async function printHistory(deps: HistoryDeps, kind: string, id: string, o: Options, out: (s: string) => void, err: (s: string) => void): Promise<number> {
  if (!KINDS.includes(kind as SubjectKind)) {
    err(`history of what? one of: ${KINDS.join(', ')}\n`);
    return 2;
  }
  if (!/^\d{1,19}$/.test(id)) {
    err(`not an id: ${id}\n`);
    return 2;
  }
  const query = Object.fromEntries(Object.entries({ at: o.at, from: o.from, to: o.to }).filter(([, v]) => v !== undefined));
  let answer: Record<string, unknown>;
  try {
    answer = (await answerHistory(deps, kind as SubjectKind, id, query)) as Record<string, unknown>;
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    const details = Array.isArray(e.details) ? ` (${(e.details as { path: string; message: string }[]).map((d) => `${d.path}: ${d.message}`).join('; ')})` : '';
    err(`${e.code}: ${e.message}${details}\n`);
    return e.status === 404 ? 1 : 2;
  }
  if (o.json) {
    out(JSON.stringify(answer, null, 2) + '\n');
    return 0;
  }
  if ('items' in answer && !('changes' in answer)) {
    out(historyTable(answer.items as HistoryItem[]));
  } else if ('changes' in answer) {
    out(`${kind} ${id} from ${String(answer.from)} to ${String(answer.to)}\n`);
    out(`changes: ${summariseChanges(answer.changes as Record<string, unknown> | null) || 'none'}\n\n`);
    out(historyTable(answer.items as HistoryItem[]));
  } else {
    // One subject as it was: its scalar fields as lines, the rest as JSON.
    const [key, view] = Object.entries(answer).find(([k]) => k !== 'at')!;
    out(`${key} ${id} at ${String(answer.at)}\n`);
    for (const [k, v] of Object.entries(view as Record<string, unknown>)) out(`  ${k.padEnd(24)} ${v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v)}\n`);
  }
  return 0;
}

export function historyCommand(program: Command, withServices: <T>(fn: (s: HistoryDeps) => Promise<T>, opts: { supplier: false }) => Promise<T>): void {
  program
    .command('history <kind> <id>')
    .description('the audit history of a family, good or link: its events and those that changed what the public saw (--at: as it was then; --from/--to: what changed between)')
    .option('--at <time>', 'the subject as it was at this ISO time')
    .option('--from <time>', 'with --to: what changed between two ISO times')
    .option('--to <time>', 'with --from')
    .option('--json', 'the HTTP answer as JSON instead of a table')
    .action(async (kind: string, id: string, o: Options) => {
      const code = await withServices(
        (s) =>
          printHistory(
            s,
            kind,
            id,
            o,
            (x) => process.stdout.write(x),
            (x) => process.stderr.write(x),
          ),
        { supplier: false },
      );
      if (code) process.exitCode = code;
    });
}
