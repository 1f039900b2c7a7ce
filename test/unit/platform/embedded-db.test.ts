import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closedToOthers } from '../../../src/platform/embedded-db';

describe('closedToOthers: can the postgres user reach a path when the service runs as root', () => {
  let top: string;
  beforeEach(() => {
    top = mkdtempSync(path.join(os.tmpdir(), 'reach-'));
  });
  afterEach(() => rmSync(top, { recursive: true, force: true }));

  it('names the nearest folder on the way that others cannot enter', () => {
    mkdirSync(path.join(top, 'a', 'b'), { recursive: true });
    chmodSync(top, 0o755);
    chmodSync(path.join(top, 'a'), 0o700);
    expect(closedToOthers(path.join(top, 'a', 'b', 'pg'))).toBe(path.join(top, 'a'));
    chmodSync(top, 0o700);
    expect(closedToOthers(path.join(top, 'a', 'b', 'pg'))).toBe(top);
  });

  it('null when every folder on the way is open, also for a path not made yet', () => {
    mkdirSync(path.join(top, 'a'), { recursive: true });
    chmodSync(top, 0o755);
    chmodSync(path.join(top, 'a'), 0o711);
    expect(closedToOthers(path.join(top, 'a', 'not', 'yet'))).toBeNull();
  });
});
