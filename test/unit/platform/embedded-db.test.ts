import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedPortTaken, closedToOthers, embeddedPort } from '../../../src/platform/embedded-db';

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

describe('embeddedPort: the embedded server of a data folder finds a port', () => {
  let dir: string;
  const held: net.Server[] = [];
  const hold = async (port = 0): Promise<number> => {
    const s = net.createServer();
    held.push(s);
    await new Promise<void>((r) => s.listen(port, '127.0.0.1', r));
    return (s.address() as net.AddressInfo).port;
  };
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'pg-port-'));
  });
  afterEach(async () => {
    await Promise.all(held.splice(0).map((s) => new Promise((r) => s.close(r))));
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes the preferred port when free, and keeps it for the folder', async () => {
    const preferred = await hold();
    await new Promise((r) => held.pop()!.close(r));
    expect(await embeddedPort(dir, undefined, preferred)).toEqual({ port: preferred });
    expect(readFileSync(path.join(dir, 'pg-port'), 'utf8').trim()).toBe(String(preferred));
  });

  it('moves to a free port when another program holds the preferred one, says who, and keeps the new one', async () => {
    const preferred = await hold();
    const first = await embeddedPort(dir, undefined, preferred);
    expect(first.port).not.toBe(preferred);
    expect(first.moved).toEqual({ from: preferred, holder: expect.stringContaining(`pid ${process.pid} (`) });
    expect(readFileSync(path.join(dir, 'pg-port'), 'utf8').trim()).toBe(String(first.port));
    // The next start uses the folder's own port, whoever holds the preferred one.
    expect(await embeddedPort(dir, undefined, preferred)).toEqual({ port: first.port });
  });

  it('moves on again when the kept port is taken meanwhile', async () => {
    writeFileSync(path.join(dir, 'pg-port'), `${await hold()}\n`);
    const kept = Number(readFileSync(path.join(dir, 'pg-port'), 'utf8'));
    const next = await embeddedPort(dir, undefined, kept);
    expect(next.port).not.toBe(kept);
    expect(next.moved?.from).toBe(kept);
    expect(Number(readFileSync(path.join(dir, 'pg-port'), 'utf8'))).toBe(next.port);
  });

  it('refuses a requested port (EMBEDDED_PG_PORT) that is taken, naming the holder and the way out', async () => {
    const port = await hold();
    const refused = embeddedPort(dir, port);
    await expect(refused).rejects.toBeInstanceOf(EmbeddedPortTaken);
    await expect(refused).rejects.toThrow(new RegExp(`port ${port} is in use by pid ${process.pid} \\(.*set EMBEDDED_PG_PORT to a free port`));
    expect(existsSync(path.join(dir, 'pg-port'))).toBe(false);
  });

  it('takes a requested port that is free as given, and remembers nothing', async () => {
    const port = await hold();
    await new Promise((r) => held.pop()!.close(r));
    expect(await embeddedPort(dir, port)).toEqual({ port });
    expect(existsSync(path.join(dir, 'pg-port'))).toBe(false);
  });
});
