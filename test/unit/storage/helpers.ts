// Shared fixtures for the storage contract suite.
import type { Readable } from 'node:stream';
import type { NewBatch, Storage, StorageOptions } from '../../../src/storage/types.ts';

/** An isolated store (temp directory, schema, database); every `open` is a separate connection to it. */
export interface ContractNamespace {
  open(options: StorageOptions): Promise<Storage>;
  drop(): Promise<void>;
}

export interface ContractBackend {
  name: string;
  /** Set when the backend cannot run here; the suite then logs this reason and skips. */
  unavailable?: string;
  createNamespace(): Promise<ContractNamespace>;
}

export class TestClock {
  #millis: number;

  constructor(start = Date.parse('2030-01-01T00:00:00.000Z')) {
    this.#millis = start;
  }

  readonly now = (): Date => new Date(this.#millis);

  advance(ms: number): Date {
    this.#millis += ms;
    return this.now();
  }
}

/** Opens storages on one fresh namespace per test and closes them all afterwards. */
export class ContractContext {
  readonly clock = new TestClock();
  readonly #backend: ContractBackend;
  #namespace: ContractNamespace | undefined;
  readonly #open: Storage[] = [];

  constructor(backend: ContractBackend) {
    this.#backend = backend;
  }

  async storage(): Promise<Storage> {
    this.#namespace ??= await this.#backend.createNamespace();
    const storage = await this.#namespace.open({ clock: this.clock.now });
    this.#open.push(storage);
    return storage;
  }

  async dispose(): Promise<void> {
    for (const storage of this.#open.splice(0)) await storage.close();
    await this.#namespace?.drop();
    this.#namespace = undefined;
  }
}

export function newBatch(owner: string, itemCount: number, extra: Partial<NewBatch> = {}): NewBatch {
  const items = Array.from({ length: itemCount }, (_, index) => ({ prompt: `prompt ${index}`, size: '1024x1024', customId: `c${index}` }));
  return { owner, model: 'image-model', items, ...extra };
}

export async function createdBatch(storage: Storage, input: NewBatch) {
  const result = await storage.batches.createBatch(input);
  if (result.outcome !== 'created') throw new Error(`expected a created batch, got ${result.outcome}`);
  return result.batch;
}

export async function readAll(stream: Readable): Promise<{ bytes: Buffer; chunks: number }> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return { bytes: Buffer.concat(chunks), chunks: chunks.length };
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `condition` holds; fails with `what` after `timeoutMs`. */
export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(20);
  }
}
