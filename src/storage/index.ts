// Picks the storage implementation for `storage.kind`. Postgres and MongoDB modules are imported on demand so the
// embedded default never loads their drivers.
import type { Storage, StorageConfig, StorageOptions } from './types.ts';

export async function openStorage(config: StorageConfig, options: StorageOptions = {}): Promise<Storage> {
  switch (config.kind) {
    case 'sqlite': {
      const { openSqliteStorage } = await import('./sqlite/index.ts');
      return openSqliteStorage(config, options);
    }
    case 'postgres': {
      const { openPostgresStorage } = await import('./postgres/index.ts');
      return openPostgresStorage(config, options);
    }
    case 'mongodb': {
      const { openMongoStorage } = await import('./mongodb/index.ts');
      return openMongoStorage(config, options);
    }
  }
}

export type * from './types.ts';
export { countItems, deriveBatchStatus, isTerminalBatchStatus } from './status.ts';
export type { ItemCounts } from './status.ts';
export { DEFAULT_IDEMPOTENCY_WINDOW_MS } from './admission.ts';
