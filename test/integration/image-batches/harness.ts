// Shared set-up of the image-batch integration tests: every suite runs once per storage backend (sqlite
// always, postgres when POSTGRES_URL is set), each test on a fresh namespace (temp directory or schema),
// against fake OpenAI-type and Gemini-type image upstreams, through the real HTTP API.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStorage } from '../../../src/storage/index.ts';
import type { Storage, StorageConfig } from '../../../src/storage/index.ts';
import { startTestGateway, testConfig, TEST_KEY } from '../../helpers/gateway.ts';
import type { TestGateway } from '../../helpers/gateway.ts';
import { dropPostgresSchema } from '../../helpers/postgres.ts';
import { BatchClient } from './batch-client.ts';
import { startFakeGeminiImages, startFakeOpenAIImages } from './fake-image-upstreams.ts';
import type { FakeImageUpstream } from './fake-image-upstreams.ts';

export { dropPostgresSchema };

export interface Namespace {
  storage: StorageConfig;
  drop(): Promise<void>;
}

export interface StorageBackend {
  name: 'sqlite' | 'postgres';
  /** Set when the backend cannot run here: the suite prints it and skips. */
  unavailable?: string;
  createNamespace(): Promise<Namespace>;
}

const runId = randomBytes(4).toString('hex');
let counter = 0;
const postgresUrl = process.env['POSTGRES_URL'];


export const BACKENDS: readonly StorageBackend[] = [
  {
    name: 'sqlite',
    async createNamespace() {
      const path = await mkdtemp(join(tmpdir(), 'gateway-batches-'));
      return { storage: { kind: 'sqlite', path }, drop: () => rm(path, { recursive: true, force: true }) };
    },
  },
  {
    name: 'postgres',
    ...(postgresUrl ? {} : { unavailable: 'POSTGRES_URL is not set (CI sets postgres://postgres@127.0.0.1:5432/test)' }),
    async createNamespace() {
      const url = postgresUrl ?? '';
      const schema = `gw_batches_${runId}_${(counter += 1)}`;
      return { storage: { kind: 'postgres', url, schema }, drop: () => dropPostgresSchema(url, schema) };
    },
  },
];

/** Test-speed plugin options: fast polling, short leases and backoff, small everything. */
export const FAST_OPTIONS = {
  processEvery: 50,
  lockLifetimeMs: 1500,
  backoff: { baseMs: 40, maxMs: 200 },
  pollAfterSeconds: 3,
  concurrency: { perBatch: 4, perProvider: 8 },
};

export const PUBLIC_URL = 'https://images.gateway.test';

export interface StartOptions {
  /** Plugin options merged over FAST_OPTIONS. */
  plugin?: Record<string, unknown>;
  /** Extra `server` settings. */
  server?: Record<string, unknown>;
}

export class Harness {
  readonly backend: StorageBackend;
  openai!: FakeImageUpstream;
  gemini!: FakeImageUpstream;
  #namespace: Namespace | undefined;
  readonly #gateways: TestGateway[] = [];
  readonly #storages: Storage[] = [];

  constructor(backend: StorageBackend) {
    this.backend = backend;
  }

  /** The gateway config for this test's namespace; every gateway started in one test shares its storage. */
  async config(options: StartOptions = {}): Promise<Record<string, unknown>> {
    this.#namespace ??= await this.backend.createNamespace();
    const sizes = ['64x64', '32x48', '48x32'];
    return testConfig({
      server: { port: 0, host: '127.0.0.1', publicUrl: PUBLIC_URL, shutdownTimeoutMs: 2000, ...options.server },
      storage: this.#namespace.storage,
      providers: {
        img: { type: 'openai', baseUrl: `${this.openai.url}/v1`, apiKey: 'sk-upstream' },
        dead: { type: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-upstream', timeoutMs: 1000 },
        tight: { type: 'openai', baseUrl: `${this.openai.url}/v1`, apiKey: 'sk-upstream', timeoutMs: 250 },
        gem: { type: 'gemini', baseUrl: this.gemini.url, apiKey: 'gemini-upstream' },
      },
      models: [
        { name: 'img-model', type: 'image', sizes, targets: [{ provider: 'img', model: 'gpt-image-1' }] },
        { name: 'fallback-img', type: 'image', sizes, targets: [{ provider: 'dead', model: 'gpt-image-1' }, { provider: 'img', model: 'gpt-image-1' }] },
        { name: 'tight-img', type: 'image', sizes, targets: [{ provider: 'tight', model: 'gpt-image-1' }] },
        { name: 'gem-image', type: 'image', sizes, targets: [{ provider: 'gem', model: 'gemini-2.5-flash-image' }] },
        { name: 'other-img', type: 'image', sizes, targets: [{ provider: 'img', model: 'gpt-image-1' }] },
        { name: 'chat-model', targets: [{ provider: 'img', model: 'gpt-4o' }] },
      ],
      plugins: ['logging', 'auth', { 'image-batches': { ...FAST_OPTIONS, ...options.plugin } }],
    });
  }

  /** Opens this test's storage directly (to look behind the API); closed by dispose(). */
  async openStorage(): Promise<Storage> {
    this.#namespace ??= await this.backend.createNamespace();
    const storage = await openStorage(this.#namespace.storage);
    this.#storages.push(storage);
    return storage;
  }

  async start(options: StartOptions = {}): Promise<{ gw: TestGateway; api: BatchClient }> {
    const gw = await startTestGateway(await this.config(options));
    this.#gateways.push(gw);
    return { gw, api: new BatchClient(gw.url, TEST_KEY) };
  }

  async setUp(): Promise<void> {
    this.openai = await startFakeOpenAIImages();
    this.gemini = await startFakeGeminiImages();
  }

  async dispose(): Promise<void> {
    for (const gw of this.#gateways.splice(0)) await gw.close();
    for (const storage of this.#storages.splice(0)) await storage.close();
    await this.openai?.close();
    await this.gemini?.close();
    await this.#namespace?.drop();
    this.#namespace = undefined;
  }
}

/** Registers `define` once per backend; each test gets fresh fakes and a fresh storage namespace. */
export function describeOnBackends(title: string, define: (harness: () => Harness) => void): void {
  for (const backend of BACKENDS) {
    describe(`${title} [${backend.name}]`, function () {
      this.timeout(30_000);
      let current: Harness | undefined;
      before(function () {
        if (backend.unavailable) {
          console.log(`    ${title}: ${backend.name} skipped: ${backend.unavailable}`);
          this.skip();
        }
      });
      beforeEach(async () => {
        current = new Harness(backend);
        await current.setUp();
      });
      afterEach(async () => {
        await current?.dispose();
        current = undefined;
      });
      define(() => {
        if (!current) throw new Error('harness used outside a test');
        return current;
      });
    });
  }
}
