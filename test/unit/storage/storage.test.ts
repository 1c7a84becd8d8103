// Runs the storage contract on every backend available: sqlite always, postgres with POSTGRES_URL, mongodb with
// MONGODB_URI. Each test gets its own temp directory / schema / database, dropped afterwards.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStorage } from '../../../src/storage/index.ts';
import { registerStorageContract } from './contract.ts';
import type { ContractNamespace } from './contract.ts';
import { dropPostgresSchema } from '../../helpers/postgres.ts';

const runId = randomBytes(4).toString('hex');
let namespaceCounter = 0;
const nextNamespaceName = (): string => `gw_test_${runId}_${(namespaceCounter += 1)}`;

registerStorageContract({
  name: 'sqlite',
  async createNamespace(): Promise<ContractNamespace> {
    const path = await mkdtemp(join(tmpdir(), 'gateway-storage-'));
    return {
      open: (options) => openStorage({ kind: 'sqlite', path }, options),
      drop: () => rm(path, { recursive: true, force: true }),
    };
  },
});

const postgresUrl = process.env['POSTGRES_URL'];
registerStorageContract({
  name: 'postgres',
  unavailable: postgresUrl ? undefined : 'POSTGRES_URL is not set (CI sets postgres://postgres@127.0.0.1:5432/test)',
  async createNamespace(): Promise<ContractNamespace> {
    const url = postgresUrl ?? '';
    const schema = nextNamespaceName();
    return {
      open: (options) => openStorage({ kind: 'postgres', url, schema }, options),
      drop: () => dropPostgresSchema(url, schema),
    };
  },
});

const mongoUri = process.env['MONGODB_URI'];
registerStorageContract({
  name: 'mongodb',
  unavailable: mongoUri ? undefined : 'MONGODB_URI is not set (point it at a MongoDB server, e.g. mongodb://127.0.0.1:27017, to run it)',
  async createNamespace(): Promise<ContractNamespace> {
    const uri = mongoUri ?? '';
    const database = nextNamespaceName();
    return {
      open: (options) => openStorage({ kind: 'mongodb', uri, database }, options),
      drop: async () => {
        const { MongoClient } = await import('mongodb');
        const client = await MongoClient.connect(uri);
        try {
          await client.db(database).dropDatabase();
        } finally {
          await client.close();
        }
      },
    };
  },
});
