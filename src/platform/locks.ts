/**
 * Named locks for the few admin rules that span streams and so cannot be held by one stream's
 * expected revision: "a dimension belongs to at most one tag group", "tag names are unique in a
 * group", "no tag group is deleted while it has tags", "the category tree has no cycle". The
 * command checks the read model under the lock, appends, and waits for its projections before the
 * lock is let go, so the next holder reads what the previous one wrote.
 *
 * Three layers, so that waiting never starves the pool the holders append through:
 * - an in-process queue per key: waiters in this process hold no database connection;
 * - an in-process cap on holders (a third of the pool), each holding one connection for all its keys;
 * - PostgreSQL session advisory locks for other processes, taken with `try` in a loop, so that a
 *   waiter gives its connection back between attempts.
 */
import type { Pool, PoolClient } from './db';
import { AppError } from './errors';

const NAMESPACE = 72_002; // first key of the two-key advisory lock: "admin catalog rules" (72_001: projection leaders)

/** How long an administrator's write waits for a lock before its 409 `LOCK.BUSY`. */
export const LOCK_WAIT_MS = 30_000;

const queues = new Map<string, Promise<unknown>>();

/** Waits for the key's earlier holders in this process; answers the release. */
async function queueFor(key: string): Promise<() => void> {
  const before = queues.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((r) => (release = r));
  const tail = before.then(() => mine);
  queues.set(key, tail);
  await before;
  return () => {
    release();
    if (queues.get(key) === tail) queues.delete(key);
  };
}

class Semaphore {
  private waiting: (() => void)[] = [];
  private held = 0;
  async acquire(limit: number): Promise<() => void> {
    while (this.held >= limit) await new Promise<void>((r) => this.waiting.push(r));
    this.held++;
    return () => {
      this.held--;
      this.waiting.shift()?.();
    };
  }
}
const holders = new WeakMap<Pool, Semaphore>();

async function tryLockAll(client: PoolClient, keys: readonly string[]): Promise<boolean> {
  const taken: string[] = [];
  for (const key of keys) {
    const r = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok`, [NAMESPACE, key]);
    if (!r.rows[0]?.ok) {
      await unlockAll(client, taken);
      return false;
    }
    taken.push(key);
  }
  return true;
}

async function unlockAll(client: PoolClient, keys: readonly string[]): Promise<void> {
  for (const key of keys) await client.query(`SELECT pg_advisory_unlock($1, hashtext($2))`, [NAMESPACE, key]);
}

/** Runs `fn` holding every named lock (taken in a fixed order, so two holders never deadlock). */
export async function withLocks<T>(pool: Pool, keys: readonly string[], fn: () => Promise<T>, timeoutMs = LOCK_WAIT_MS): Promise<T> {
  const sorted = [...new Set(keys)].sort();
  const releases: (() => void)[] = [];
  try {
    for (const key of sorted) releases.push(await queueFor(key));
    let semaphore = holders.get(pool);
    if (!semaphore) holders.set(pool, (semaphore = new Semaphore()));
    releases.push(await semaphore.acquire(Math.max(1, Math.floor(pool.options.max / 3))));

    const deadline = Date.now() + timeoutMs;
    for (let wait = 10; ; wait = Math.min(wait * 2, 200)) {
      const client = await pool.connect();
      let locked = false;
      try {
        locked = await tryLockAll(client, sorted);
      } catch (e) {
        client.release(e as Error); // a broken connection takes its session locks with it
        throw e;
      }
      if (locked) {
        try {
          return await fn();
        } finally {
          await unlockAll(client, sorted).then(
            () => client.release(),
            (e: unknown) => client.release(e as Error),
          );
        }
      }
      client.release();
      if (Date.now() > deadline) throw AppError.conflict('LOCK.BUSY', `another administrator is changing the same thing (${sorted.join(', ')}); try again`);
      await new Promise((r) => setTimeout(r, wait));
    }
  } finally {
    for (const release of releases.reverse()) release();
  }
}

/**
 * Runs `fn` holding every named lock in shared mode: shared holders do not wait for each other, only
 * for an exclusive holder of the same key (`withLocks`), which in turn waits until no shared holder
 * is left. The writes that make a reference to a resource hold its key shared, the delete that must
 * not leave such a reference dangling holds it exclusively (src/catalog/references.ts). All keys are
 * taken at once in one statement, or none: a holder never waits while holding some of them.
 */
export async function withSharedLocks<T>(pool: Pool, keys: readonly string[], fn: () => Promise<T>, timeoutMs = LOCK_WAIT_MS): Promise<T> {
  const sorted = [...new Set(keys)].sort();
  if (sorted.length === 0) return fn();
  let semaphore = holders.get(pool);
  if (!semaphore) holders.set(pool, (semaphore = new Semaphore()));
  const release = await semaphore.acquire(Math.max(1, Math.floor(pool.options.max / 3)));
  try {
    const deadline = Date.now() + timeoutMs;
    for (let wait = 10; ; wait = Math.min(wait * 2, 200)) {
      const client = await pool.connect();
      let locked = false;
      try {
        const r = await client.query<{ ok: boolean }>(
          `WITH wanted AS (SELECT k FROM unnest($2::text[]) AS k),
                taken AS (SELECT k, pg_try_advisory_lock_shared($1, hashtext(k)) AS ok FROM wanted)
           SELECT bool_and(ok) AS ok, array_agg(k) FILTER (WHERE ok) AS held FROM taken`,
          [NAMESPACE, sorted],
        );
        locked = !!r.rows[0]?.ok;
        if (!locked) {
          const held = (r.rows[0] as unknown as { held: string[] | null }).held ?? [];
          await unlockAllShared(client, held);
        }
      } catch (e) {
        client.release(e as Error); // a broken connection takes its session locks with it
        throw e;
      }
      if (locked) {
        try {
          return await fn();
        } finally {
          await unlockAllShared(client, sorted).then(
            () => client.release(),
            (e: unknown) => client.release(e as Error),
          );
        }
      }
      client.release();
      if (Date.now() > deadline) throw AppError.conflict('LOCK.BUSY', `another administrator is changing the same thing (${sorted.join(', ')}); try again`);
      await new Promise((r) => setTimeout(r, wait));
    }
  } finally {
    release();
  }
}

async function unlockAllShared(client: PoolClient, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await client.query(`SELECT pg_advisory_unlock_shared($1, hashtext(k)) FROM unnest($2::text[]) AS k`, [NAMESPACE, keys]);
}

/** A session lock held for a long operation (an organisation run) on a connection of its own. */
export interface HeldLock {
  /** Throws once the lock's connection was lost: the lock went with it, and another run may have started. */
  assertHeld(): void;
  release(): Promise<void>;
}

/**
 * Takes a session advisory lock on a pooled connection of its own, or answers null when another
 * session holds it. The connection is watched: if it is lost (terminated, the network gone) the lock
 * is gone too, and `assertHeld` says so, so the holder stops instead of going on unprotected. On
 * release a connection that cannot unlock is destroyed, never returned to the pool still holding it.
 */
export async function holdSessionLock(pool: Pool, key: string): Promise<HeldLock | null> {
  const client = await pool.connect();
  let lost: unknown = null;
  const onLost = (e?: unknown) => (lost ??= e ?? new Error('connection ended'));
  client.on('error', onLost);
  client.on('end', onLost);
  const stopWatching = () => {
    client.off('error', onLost);
    client.off('end', onLost);
  };
  let taken: boolean;
  try {
    taken = (await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok`, [NAMESPACE, key])).rows[0]!.ok;
  } catch (e) {
    stopWatching();
    client.release(e as Error);
    throw e;
  }
  if (!taken) {
    stopWatching();
    client.release();
    return null;
  }
  return {
    assertHeld() {
      if (lost) throw AppError.unavailable('LOCK.LOST', `the lock "${key}" was lost with its database connection; stopped`);
    },
    async release() {
      stopWatching();
      if (lost) return client.release(lost as Error);
      await client.query(`SELECT pg_advisory_unlock($1, hashtext($2))`, [NAMESPACE, key]).then(
        () => client.release(),
        (e: unknown) => client.release(e as Error),
      );
    },
  };
}

/**
 * Whether any session of this database holds the session lock `key` (as `holdSessionLock` takes it):
 * how a reader in any process tells a long operation that is still going from one whose process died.
 * `shared`: only a shared holder (`withSharedLocks`) counts.
 */
export async function sessionLockHeld(pool: Pick<Pool, 'query'>, key: string, opts: { shared?: boolean } = {}): Promise<boolean> {
  const r = await pool.query<{ held: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_locks
                     WHERE locktype = 'advisory' AND granted AND objsubid = 2
                       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                       AND classid = $1::int::oid AND objid = hashtext($2)::oid AND ($3::boolean IS NOT TRUE OR mode = 'ShareLock')) AS held`,
    [NAMESPACE, key, opts.shared ?? false],
  );
  return r.rows[0]!.held;
}
