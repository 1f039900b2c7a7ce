/**
 * The signing secret at start-up (docs/security.md, Tokens): a short JWT_SECRET, or none with an external database,
 * stops the service before it opens anything.
 */
import { ConfigError, loadConfig } from '../../../src/config';
import { startService } from '../../../src/main';
import { createLogger } from '../../../src/platform/log';

describe('JWT_SECRET at start-up', () => {
  const log = createLogger('silent');

  it('fewer than 32 characters stops configuration', () => {
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(31) })).toThrow(/JWT_SECRET/);
    expect(loadConfig({ JWT_SECRET: 'x'.repeat(32) }).jwt.secret).toHaveLength(32);
  });

  it('an API with DATABASE_URL and no JWT_SECRET refuses to start, before touching the database', async () => {
    // Port 1 on loopback: had start-up got as far as connecting, the error would be ECONNREFUSED instead.
    const config = loadConfig({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    await expect(startService(config, log, ['api'])).rejects.toThrow(ConfigError);
    await expect(startService(config, log, ['api'])).rejects.toThrow(/JWT_SECRET/);
  });
});
