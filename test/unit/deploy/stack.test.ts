/**
 * The production stack (docker-compose.yml, Dockerfile, .dockerignore, the nginx template), checked
 * by reading the files as Docker Compose and Docker would: no engine runs here. The compose file is
 * rendered with Compose's interpolation (`${VAR:?message}`, `${VAR:-default}`, `$$`) and its YAML
 * merge keys, then held to docs/deployment.md.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '../../../src/config';

const ROOT = path.resolve(__dirname, '../../..');
const read = (f: string) => readFileSync(path.join(ROOT, f), 'utf8');

const SECRETS = ['POSTGRES_PASSWORD', 'KURRENTDB_ADMIN_PASSWORD', 'KURRENTDB_OPS_PASSWORD', 'JWT_SECRET'];
const ENV = {
  POSTGRES_PASSWORD: 'pg-secret-1',
  KURRENTDB_ADMIN_PASSWORD: 'kdb-admin-secret-2',
  KURRENTDB_OPS_PASSWORD: 'kdb-ops-secret-3',
  JWT_SECRET: 'j'.repeat(48),
  UPSTREAM_URL: 'https://supplier.example.com',
};

/** Compose's variable interpolation: `$$` is a literal `$`; `:?` fails when unset or empty. */
function interpolate(text: string, env: Record<string, string | undefined>): string {
  return text.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (m, name?: string, op?: string, arg?: string, bare?: string) => {
    if (m === '$$') return '$';
    if (bare) return env[bare] ?? '';
    const v = env[name!];
    const unset = op?.startsWith(':') ? !v : v === undefined;
    if (op === ':?' || op === '?') {
      if (unset) throw new Error(`required variable ${name} is missing a value: ${arg}`);
      return v!;
    }
    if (op === ':-' || op === '-') return unset ? arg! : v!;
    return v ?? '';
  });
}

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string | number>;
  ports?: string[];
  networks?: string[];
  network_mode?: string;
  volumes?: string[];
  restart?: string;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  user?: string;
}
interface Compose {
  services: Record<string, Service>;
  networks: Record<string, { internal?: boolean } | null>;
  volumes: Record<string, unknown>;
}

const render = (env: Record<string, string | undefined>) => parse(interpolate(read('docker-compose.yml'), env), { merge: true }) as Compose;

describe('docker-compose.yml', () => {
  const stack = render(ENV);
  const { services } = stack;
  const env = (name: string) => Object.fromEntries(Object.entries(services[name]!.environment ?? {}).map(([k, v]) => [k, String(v)]));

  it.each(SECRETS)('has no default for %s: rendering without it fails, naming it', (secret) => {
    expect(() => render({ ...ENV, [secret]: undefined })).toThrow(new RegExp(secret));
    expect(() => render({ ...ENV, [secret]: '' })).toThrow(new RegExp(secret));
    // Every use of it is the failing form.
    const uses = read('docker-compose.yml').match(new RegExp(`\\$\\{${secret}[^}]*\\}`, 'g')) ?? [];
    expect(uses.length).toBeGreaterThan(0);
    for (const u of uses) expect(u).toMatch(new RegExp(`^\\$\\{${secret}:\\?`));
  });

  it('keeps no password of its own in the file', () => {
    const text = read('docker-compose.yml');
    expect(text).not.toMatch(/changeit|catalog:catalog@|POSTGRES_PASSWORD:\s*catalog\b/);
    expect(JSON.stringify(stack)).toContain(ENV.POSTGRES_PASSWORD);
  });

  it('publishes only the proxy', () => {
    const published = Object.entries(services)
      .filter(([, s]) => s.ports?.length)
      .map(([n]) => n);
    expect(published).toEqual(['proxy']);
    expect(services.proxy!.ports).toEqual(['8080:80']);
  });

  it('keeps KurrentDB and PostgreSQL on an internal network only', () => {
    expect(stack.networks.stores).toEqual({ internal: true });
    for (const store of ['kurrentdb', 'postgres']) expect(services[store]!.networks).toEqual(['stores']);
    expect(services.proxy!.networks).not.toContain('stores');
  });

  it('runs KurrentDB (pinned 26.x) secure: TLS from the certificates job, logins with passwords from the environment', () => {
    const k = services.kurrentdb!;
    expect(k.image).toMatch(/^docker\.kurrent\.io\/kurrent-latest\/kurrentdb:26\.\d+\.\d+$/);
    const e = env('kurrentdb');
    expect(e).not.toHaveProperty('KURRENTDB_INSECURE');
    expect(Object.keys(e).filter((k) => k.startsWith('EVENTSTORE_'))).toEqual([]);
    expect(e).toMatchObject({
      KURRENTDB_CERTIFICATE_FILE: expect.stringMatching(/node\.crt$/),
      KURRENTDB_CERTIFICATE_PRIVATE_KEY_FILE: expect.stringMatching(/node\.key$/),
      KURRENTDB_TRUSTED_ROOT_CERTIFICATES_PATH: expect.any(String),
      KURRENTDB_DEFAULT_ADMIN_PASSWORD: ENV.KURRENTDB_ADMIN_PASSWORD,
      KURRENTDB_DEFAULT_OPS_PASSWORD: ENV.KURRENTDB_OPS_PASSWORD,
      // A batch of the service is one multi-stream append, larger than the server's default limit of 1 MiB can be.
      KURRENTDB_MAX_APPEND_SIZE: String(8 * 1024 * 1024),
    });
    expect(k.volumes).toContain('kurrentdb-data:/var/lib/kurrentdb');
    expect(k.depends_on).toEqual({ certs: { condition: 'service_completed_successfully' } });
    expect(k.healthcheck!.test.join(' ')).toContain('https://');
  });

  it('a one-shot job makes the CA and the node certificate once; the service gets only the CA certificate', () => {
    const certs = services.certs!;
    expect(certs.restart).toBeUndefined();
    const script = (certs.command ?? []).join('\n');
    expect(script).toMatch(/if \[ ! -f \/out\/node\/node\.crt \]/);
    expect(script).toMatch(/create-ca/);
    expect(script).toMatch(/create-node[^\n]*-dns-names kurrentdb/);
    const volumeOf = (s: Service, target: string) => s.volumes!.find((v) => v.split(':')[1] === target)?.split(':')[0];
    const nodeCerts = volumeOf(certs, '/out')!;
    const caOnly = volumeOf(certs, '/ca')!;
    expect(volumeOf(services.kurrentdb!, '/certs')).toBe(nodeCerts);
    for (const name of ['api', 'worker']) {
      const vols = services[name]!.volumes!;
      expect(vols).toEqual([`${caOnly}:/certs/ca:ro`]);
      expect(vols.join()).not.toContain(nodeCerts);
    }
  });

  it('runs api and worker from one image, in production, on the secure KurrentDB and PostgreSQL', () => {
    const api = services.api!;
    const worker = services.worker!;
    expect(api.build).toBe('.');
    expect(worker.build).toBe('.');
    expect(api.command).toEqual(['node', 'bin/catalog.js', 'serve', '--role', 'api']);
    expect(worker.command).toEqual(['node', 'bin/catalog.js', 'serve', '--role', 'worker']);
    for (const name of ['api', 'worker']) {
      const e = env(name);
      expect(e.NODE_ENV).toBe('production');
      expect(e.EVENT_STORE).toBe('eventstoredb');
      expect(e.EVENTSTORE_URL).toBe(`kurrentdb://admin:${ENV.KURRENTDB_ADMIN_PASSWORD}@kurrentdb:2113?tls=true&tlsCAFile=/certs/ca/ca.crt`);
      expect(e.DATABASE_URL).toBe(`postgres://catalog:${ENV.POSTGRES_PASSWORD}@postgres:5432/catalog`);
      expect(e.JWT_SECRET).toBe(ENV.JWT_SECRET);
      expect(e.UPSTREAM_URL).toBe(ENV.UPSTREAM_URL);
      expect(e.UPLOAD_STORAGE).toBe('postgres');
      expect(services[name]!.depends_on).toMatchObject({ kurrentdb: { condition: 'service_healthy' }, postgres: { condition: 'service_healthy' } });
    }
    // The worker does not serve HTTP: the proxy-hop setting is the api's.
    expect(env('api').TRUST_PROXY).toBe('1');
    expect(env('worker')).not.toHaveProperty('TRUST_PROXY');
  });

  it('without UPSTREAM_URL the stack passes an empty one, which production refuses unless UPSTREAM_SIMULATOR=true', () => {
    const bare = render({ ...ENV, UPSTREAM_URL: undefined });
    expect(bare.services.api!.environment!.UPSTREAM_URL).toBe('');
    expect(bare.services.api!.environment!.UPSTREAM_SIMULATOR).toBe('false');
  });

  it('restarts every long-running service unless stopped', () => {
    for (const name of ['kurrentdb', 'postgres', 'api', 'worker', 'proxy']) expect([name, services[name]!.restart]).toEqual([name, 'unless-stopped']);
  });

  it('checks PostgreSQL over TCP, so the check cannot pass during initdb', () => {
    expect(services.postgres!.healthcheck!.test.join(' ')).toMatch(/pg_isready -h 127\.0\.0\.1 /);
  });

  it('the proxy reaches the api and renders only its own variables', () => {
    expect(env('proxy')).toMatchObject({ V1_UPSTREAM: 'api:3000', V2_UPSTREAM: 'api:3000', NGINX_ENVSUBST_FILTER: '^V[12]_UPSTREAM$' });
    expect(services.proxy!.depends_on).toEqual({ api: { condition: 'service_healthy' } });
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const lines = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const args = Object.fromEntries(lines.filter((l) => l.startsWith('ARG ')).map((l) => l.slice(4).split('=') as [string, string]));
  const froms = lines.filter((l) => l.startsWith('FROM ')).map((l) => l.split(/\s+/)[1]!.replace(/^\$\{(\w+)\}$/, (_, n: string) => args[n]!));
  const finalStage = lines.slice(lines.lastIndexOf(lines.filter((l) => l.startsWith('FROM ')).at(-1)!));

  it('builds on Node 24 LTS pinned by exact tag, in every stage, and package.json engines name that line', () => {
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const image of froms) expect(image).toMatch(/^node:24\.\d+\.\d+-bookworm-slim$/);
    const [, minor, patch] = /^node:24\.(\d+)\.(\d+)/.exec(froms[0]!)!;
    const engines = JSON.parse(read('package.json')).engines.node as string;
    const m = /^\^24\.(\d+)\.(\d+)$/.exec(engines);
    expect(m).not.toBeNull();
    expect(Number(minor) * 1000 + Number(patch)).toBeGreaterThanOrEqual(Number(m![1]) * 1000 + Number(m![2]));
  });

  it("the README's set-up names the Node version that engines and the image name", () => {
    const engines = /^\^(\d+)\.(\d+)\.\d+$/.exec(JSON.parse(read('package.json')).engines.node as string)!;
    const setUp = read('README.md')
      .split(/^## /m)
      .find((s) => s.startsWith('Set-up'))!;
    // A new user reads which Node to install before the first command.
    expect(setUp.split('```')[0]).toContain(`Node.js ${engines[1]} (${engines[1]}.${engines[2]} or a later ${engines[1]}.x`);
    expect(setUp).toContain(`runs Node ${froms[0]!.replace(/^node:(\d+\.\d+\.\d+).*$/, '$1')}`);
  });

  it("types the code against the Node it runs: @types/node on the image's major and minor version", () => {
    // @types/node versions follow Node's major and minor; their patch numbers are the typings' own.
    const [, line] = /^node:(\d+\.\d+)\./.exec(froms[0]!)!;
    const range = JSON.parse(read('package.json')).devDependencies['@types/node'] as string;
    expect(range).toMatch(new RegExp(`^~${line!.replace('.', '\\.')}\\.\\d+$`));
    const installed = JSON.parse(read('node_modules/@types/node/package.json')).version as string;
    expect(installed.startsWith(`${line}.`)).toBe(true);
  });

  it('installs production dependencies only and leaves no npm cache in the image', () => {
    const install = finalStage.find((l) => l.startsWith('RUN ') && l.includes('npm ci'))!;
    expect(install).toMatch(/npm ci --omit=dev/);
    expect(install).toMatch(/&& npm cache clean --force/);
  });

  it('creates every data folder and gives it to the user the service runs as', () => {
    const run = finalStage.filter((l) => l.startsWith('RUN ')).join('\n');
    expect(run).toMatch(/mkdir -p \/data\/uploads/);
    expect(run).toMatch(/chown -R node:node \/data/);
    const users = finalStage.filter((l) => l.startsWith('USER '));
    expect(users).toEqual(['USER node']);
    expect(finalStage.indexOf('USER node')).toBeGreaterThan(finalStage.findIndex((l) => l.includes('chown -R node:node /data')));
    expect(finalStage.find((l) => l.startsWith('ENV '))).toMatch(/DATA_DIR=\/data UPLOAD_DIR=\/data\/uploads/);
  });
});

describe('.dockerignore', () => {
  it('keeps secrets, local data and build output out of the image', () => {
    const entries = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    expect(entries).toEqual(expect.arrayContaining(['.env', '.env.*', '.data', 'test-results', 'node_modules', '.git', 'dist', 'coverage', 'logs']));
    expect(entries.filter((e) => e.startsWith('!'))).toEqual([]);
  });
});

describe('the nginx template', () => {
  const template = read('web/proxy/default.conf.template');
  const block = (location: string) => {
    const at = template.indexOf(`location ${location} {`);
    expect(at).toBeGreaterThanOrEqual(0);
    // Up to the block's own closing brace (a `${VAR}` inside is no end).
    return /^location [^{]+\{((?:\$\{[^}]*\}|[^}])*)\}/.exec(template.slice(at))![1]!;
  };

  it.each([
    ['/api', 'catalog_v1'],
    ['/v2-api', 'catalog_v2'],
  ])('gives organise and auto-group under %s the time a large catalogue needs', (prefix, upstream) => {
    for (const route of ['organize', 'auto-group']) {
      const b = block(`${prefix}/product-families/${route}`);
      expect(b).toContain(`proxy_pass http://${upstream}/product-families/${route};`);
      const seconds = Number(/proxy_read_timeout (\d+)s;/.exec(b)![1]);
      expect(seconds).toBeGreaterThanOrEqual(600);
    }
    // Everything else keeps nginx's default.
    expect(block(`${prefix}/`)).not.toContain('proxy_read_timeout');
  });

  it('keeps connections to the services, and closes an idle one before the service would', () => {
    const serviceKeepsMs = loadConfig({}).http.keepAliveTimeoutMs;
    for (const [name, variable] of [
      ['catalog_v1', 'V1_UPSTREAM'],
      ['catalog_v2', 'V2_UPSTREAM'],
    ]) {
      const upstream = new RegExp(`upstream ${name} \\{((?:\\$\\{[^}]*\\}|[^}])*)\\}`).exec(template)?.[1];
      expect(upstream).toContain(`server \${${variable}};`);
      expect(upstream).toMatch(/keepalive \d+;/);
      const idleS = Number(/keepalive_timeout (\d+)s;/.exec(upstream!)![1]);
      expect(idleS * 1000).toBeLessThan(serviceKeepsMs);
    }
    // Every request to a service goes through the kept connections, without `Connection: close`.
    expect(template).not.toMatch(/proxy_pass http:\/\/\$\{/);
    expect(template).toMatch(/proxy_set_header Connection "";/);
  });
});
