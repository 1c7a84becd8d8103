// Test clean-up for PostgreSQL-backed suites: each run works in its own schema and drops it afterwards.

/** Drops a test schema and everything in it. */
export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
