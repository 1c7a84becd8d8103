// Tables for batches, items, blobs and Agenda's jobs/logs, created once per schema under an advisory lock so that
// several gateway processes starting together do not race on CREATE ... IF NOT EXISTS.
import {
  getCreateIndexesSQL, getCreateLogsIndexesSQL, getCreateLogsTableSQL, getCreateTableSQL, getUpdateTimestampTriggerSQL,
} from '@agendajs/postgres-backend';
import type { Pool } from 'pg';

export const AGENDA_JOBS_TABLE = 'agenda_jobs';
export const AGENDA_LOGS_TABLE = 'agenda_logs';
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
/** First key of the two-int advisory locks this module takes ("GWST"). */
const ADVISORY_NAMESPACE = 0x47575354;

const STORAGE_TABLES: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS batches (
    id text PRIMARY KEY,
    owner text NOT NULL,
    model text NOT NULL,
    status text NOT NULL,
    created_at timestamptz NOT NULL,
    completed_at timestamptz,
    cancelled_at timestamptz,
    metadata jsonb,
    idempotency_key text,
    request_hash text,
    item_count integer NOT NULL
  )`,
  `CREATE UNIQUE INDEX IF NOT EXISTS batches_owner_idempotency
    ON batches (owner, idempotency_key) WHERE idempotency_key IS NOT NULL`,
  'CREATE INDEX IF NOT EXISTS batches_owner_id ON batches (owner, id)',
  'CREATE INDEX IF NOT EXISTS batches_owner_status ON batches (owner, status)',
  'CREATE INDEX IF NOT EXISTS batches_owner_created ON batches (owner, created_at)',
  `CREATE TABLE IF NOT EXISTS batch_items (
    batch_id text NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
    idx integer NOT NULL,
    custom_id text,
    prompt text NOT NULL,
    size text NOT NULL,
    status text NOT NULL,
    error_code text,
    error_message text,
    attempts integer NOT NULL DEFAULT 0,
    blob_key text,
    blob_mime_type text,
    blob_bytes integer,
    blob_etag text,
    expires_at timestamptz,
    expired boolean NOT NULL DEFAULT false,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (batch_id, idx)
  )`,
  'CREATE INDEX IF NOT EXISTS batch_items_status_updated ON batch_items (status, updated_at)',
  'CREATE INDEX IF NOT EXISTS batch_items_expiry ON batch_items (expires_at) WHERE NOT expired AND blob_key IS NOT NULL',
  `CREATE TABLE IF NOT EXISTS blobs (
    key text PRIMARY KEY,
    mime_type text NOT NULL,
    bytes integer NOT NULL,
    etag text NOT NULL,
    data bytea NOT NULL
  )`,
  // Images are already compressed; uncompressed TOAST lets substring() read a chunk without inflating the rest.
  // Only when needed: ALTER TABLE takes an exclusive lock that would stall other instances' reads at every start.
  `DO $$ BEGIN
    IF (SELECT attstorage FROM pg_attribute WHERE attrelid = 'blobs'::regclass AND attname = 'data') <> 'e' THEN
      ALTER TABLE blobs ALTER COLUMN data SET STORAGE EXTERNAL;
    END IF;
  END $$`,
];

export function assertValidSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid postgres schema name ${JSON.stringify(schema)}`);
}

/** A second advisory-lock key derived from text, inside ADVISORY_NAMESPACE. */
export function advisoryLockSql(textParam: string): string {
  return `SELECT pg_advisory_xact_lock(${ADVISORY_NAMESPACE}, hashtext(${textParam}))`;
}

export async function ensurePostgresSchema(pool: Pool, schema: string | undefined): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(advisoryLockSql('$1'), [`schema:${schema ?? ''}`]);
    if (schema) await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    for (const statement of STORAGE_TABLES) await client.query(statement);
    await client.query(getCreateTableSQL(AGENDA_JOBS_TABLE));
    for (const statement of getCreateIndexesSQL(AGENDA_JOBS_TABLE)) await client.query(statement);
    await client.query(getUpdateTimestampTriggerSQL(AGENDA_JOBS_TABLE));
    await client.query(getCreateLogsTableSQL(AGENDA_LOGS_TABLE));
    for (const statement of getCreateLogsIndexesSQL(AGENDA_LOGS_TABLE)) await client.query(statement);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}
