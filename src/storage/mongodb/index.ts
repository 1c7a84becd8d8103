// MongoDB storage on the official driver: `batches` collection, GridFS images, @agendajs/mongo-backend for jobs.
import { MongoBackend } from '@agendajs/mongo-backend';
import { MongoClient } from 'mongodb';
import type { Storage, StorageOptions } from '../types.ts';
import { ensureBatchIndexes, MongoBatchRepository } from './batch-repository.ts';
import { MongoBlobStore } from './blob-store.ts';

export const AGENDA_JOBS_COLLECTION = 'agendaJobs';

export async function openMongoStorage(config: { uri: string; database?: string }, options: StorageOptions = {}): Promise<Storage> {
  const client = await MongoClient.connect(config.uri);
  try {
    // Without `database`, the driver uses the database named in the URI.
    const db = client.db(config.database);
    await ensureBatchIndexes(db);
    return {
      kind: 'mongodb',
      // Shares our client, so agenda.stop() leaves it open (ownsConnection is false for `mongo`).
      agendaBackend: new MongoBackend({ mongo: db, collection: AGENDA_JOBS_COLLECTION }),
      batches: new MongoBatchRepository(db, options.clock ?? (() => new Date())),
      blobs: new MongoBlobStore(db),
      close: () => client.close(),
    };
  } catch (error) {
    await client.close();
    throw error;
  }
}
