const pg = require('pg');

module.exports = async function globalTeardown() {
  const t = globalThis.__TEST_TEMPLATE__;
  if (t) {
    const admin = new pg.Client({ connectionString: t.adminUrl });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${t.name} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  }
  if (globalThis.__EMBEDDED_PG__) await globalThis.__EMBEDDED_PG__.stop();
};
