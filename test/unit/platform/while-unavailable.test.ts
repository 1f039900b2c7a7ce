import { AppError } from '../../../src/platform/errors';
import { whileUnavailable } from '../../../src/platform/while-unavailable';

const behind = () => AppError.unavailable('PROJECTION.BEHIND', 'behind');

describe('whileUnavailable', () => {
  it('runs a step refused with a 503 again until it succeeds', async () => {
    let calls = 0;
    const step = async () => {
      calls++;
      if (calls < 3) throw behind();
      return 'done';
    };
    expect(await whileUnavailable(step, { delaysMs: [1] })).toBe('done');
    expect(calls).toBe(3);
  });

  it('ends at once on any other error, and after its last attempt on a 503', async () => {
    let calls = 0;
    const conflict = new AppError('VALIDATION_FAILED', 400, 'no');
    await expect(
      whileUnavailable(
        async () => {
          calls++;
          throw conflict;
        },
        { delaysMs: [1] },
      ),
    ).rejects.toBe(conflict);
    expect(calls).toBe(1);
    calls = 0;
    await expect(
      whileUnavailable(
        async () => {
          calls++;
          throw behind();
        },
        { delaysMs: [1], attempts: 4 },
      ),
    ).rejects.toMatchObject({ status: 503, code: 'PROJECTION.BEHIND' });
    expect(calls).toBe(4);
  });

  it('gives up with null when the process starts shutting down while it waits', async () => {
    let calls = 0;
    const result = await whileUnavailable(
      async () => {
        calls++;
        throw behind();
      },
      { delaysMs: [1], stopping: () => calls >= 2 },
    );
    expect(result).toBeNull();
    expect(calls).toBe(2);
  });
});
