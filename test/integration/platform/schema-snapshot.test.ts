/**
 * The schema the migrations build is the one migrations/schema.snapshot.txt records
 * (migrations/README.md): a migration that changes the schema regenerates the snapshot in the same
 * commit (`npm run migrations:snapshot`), and one that changes it unawares fails here, such as a
 * CREATE OR REPLACE of an append function that drops its plan_cache_mode.
 */
import { readFileSync } from 'node:fs';
import { migrate } from '../../../src/platform/migrate';
import { SNAPSHOT_FILE, schemaSnapshot } from '../../../scripts/schema-snapshot';
import { createTestDatabase, type TestDatabase } from '../../support/db';

describe('the schema the migrations build', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ migrated: false });
    await migrate({ databaseUrl: db.url });
  });
  afterAll(() => db.drop());

  it('is the snapshot: every migration applied to an empty database (npm run migrations:snapshot rewrites it)', async () => {
    expect(await schemaSnapshot(db.pool)).toBe(readFileSync(SNAPSHOT_FILE, 'utf8'));
  });

  it('keeps the append functions planning their statements once for any batch (migration 028), and compiling none (migration 036)', async () => {
    const r = await db.pool.query<{ name: string; config: string[] | null }>(
      `SELECT proname AS name, proconfig AS config FROM pg_proc WHERE proname IN ('es_append', 'es_append_many') ORDER BY proname`,
    );
    expect(r.rows).toEqual([
      { name: 'es_append', config: ['plan_cache_mode=force_generic_plan', 'jit=off'] },
      { name: 'es_append_many', config: ['plan_cache_mode=force_generic_plan', 'jit=off'] },
    ]);
  });
});
