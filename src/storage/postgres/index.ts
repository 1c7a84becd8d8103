// PostgreSQL storage: one pg Pool shared by the batch tables, the bytea blob table and @agendajs/postgres-backend.
import { PostgresBackend } from '@agendajs/postgres-backend';
import pg from 'pg';
import type { Storage, StorageOptions } from '../types.ts';
import { PostgresBatchRepository } from './batch-repository.ts';
import { PostgresBlobStore } from './blob-store.ts';
import { AGENDA_JOBS_TABLE, AGENDA_LOGS_TABLE, assertValidSchemaName, ensurePostgresSchema } from './schema.ts';

export async function openPostgresStorage(config: { url: string; schema?: string }, options: StorageOptions = {}): Promise<Storage> {
  if (config.schema !== undefined) assertValidSchemaName(config.schema);
  const pool = new pg.Pool({
    connectionString: config.url,
    ...(config.schema ? { options: `-c search_path=${config.schema}` } : {}),
  });
  // An idle client whose server connection dropped emits 'error' on the pool; the pool discards it and the next
  // query reconnects, so there is nothing to do but keep the process alive.
  pool.on('error', () => undefined);
  try {
    await ensurePostgresSchema(pool, config.schema);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const agendaBackend = new PostgresBackend({
    pool,
    tableName: AGENDA_JOBS_TABLE,
    logTableName: AGENDA_LOGS_TABLE,
    // NOTIFY channels are per database, not per schema: keep instances on other schemas out of our wake-ups.
    channelName: `${config.schema ?? 'public'}_agenda_jobs`,
    ensureSchema: false,
  });
  return {
    kind: 'postgres',
    agendaBackend,
    batches: new PostgresBatchRepository(pool, options.clock ?? (() => new Date())),
    blobs: new PostgresBlobStore(pool),
    close: () => pool.end(),
  };
}
