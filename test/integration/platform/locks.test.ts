import { createPool, type Pool } from '../../../src/platform/db';
import { withLocks } from '../../../src/platform/locks';
import { createTestDatabase, type TestDatabase } from '../../support/db';

// A second copy of the module, with its own in-process queues, stands for another process.
let otherProcessWithLocks!: typeof withLocks;
jest.isolateModules(() => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- jest.isolateModules gives a fresh copy only to require
  otherProcessWithLocks = (require('../../../src/platform/locks') as typeof import('../../../src/platform/locks')).withLocks;
});

describe('named locks', () => {
  let db: TestDatabase;
  let pools: Pool[];
  const lockIn = [withLocks, otherProcessWithLocks];
  beforeAll(async () => {
    db = await createTestDatabase();
    // Two pools stand for two processes; each is small, so a waiter sitting on a connection would starve the holder.
    pools = [createPool(db.url, 3), createPool(db.url, 3)];
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await db.drop();
  });

  it('one key: holders in two processes never overlap, and each holder can still use its pool', async () => {
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        lockIn[i % 2]!(pools[i % 2]!, ['k'], async () => {
          inside++;
          most = Math.max(most, inside);
          await pools[i % 2]!.query('SELECT pg_sleep(0.01)');
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
  });

  it('many distinct keys at once in one small pool: all finish (waiters do not hold connections)', async () => {
    const done = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        withLocks(pools[0]!, [`key-${i}`, 'shared-' + (i % 3)], async () => {
          await pools[0]!.query('SELECT pg_sleep(0.005)');
          return i;
        }),
      ),
    );
    expect(done).toHaveLength(20);
  });

  it('a failing holder lets go of its locks', async () => {
    await expect(withLocks(pools[0]!, ['boom'], async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(otherProcessWithLocks(pools[1]!, ['boom'], async () => 'after', 2_000)).resolves.toBe('after');
  });
});
