// The embedded default: one sqlite file plus an images directory under `storage.path`.
import type { Storage, StorageOptions } from '../types.ts';
import { SqliteAgendaBackend } from './agenda-backend.ts';
import { SqliteBatchRepository } from './batch-repository.ts';
import { SqliteBlobStore } from './blob-store.ts';
import { SqliteDatabase } from './database.ts';

export async function openSqliteStorage(config: { path: string }, options: StorageOptions = {}): Promise<Storage> {
  const db = new SqliteDatabase(config.path);
  const clock = options.clock ?? (() => new Date());
  return {
    kind: 'sqlite',
    agendaBackend: new SqliteAgendaBackend(db),
    batches: new SqliteBatchRepository(db, clock),
    blobs: new SqliteBlobStore(db, config.path),
    close: async () => db.close(),
  };
}
