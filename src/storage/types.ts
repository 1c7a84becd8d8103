// The storage contract the image-batches plugin codes against. Three implementations (sqlite, postgres, mongodb)
// satisfy it; test/unit/storage/contract.ts is the executable version of the rules written here.
import type { Readable } from 'node:stream';
import type { AgendaBackend } from 'agenda';

export type StorageConfig =
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; url: string; schema?: string }
  | { kind: 'mongodb'; uri: string; database?: string };

export type StorageKind = StorageConfig['kind'];

export interface StorageOptions {
  /** Source of "now" for every timestamp the repository writes or compares; tests inject a movable clock. */
  clock?: () => Date;
}

export type BatchStatus = 'queued' | 'running' | 'completed' | 'partial_failed' | 'failed' | 'cancelled';
export type ItemStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface ItemError {
  code: string;
  message: string;
}

export interface BlobRef {
  key: string;
  mimeType: string;
  bytes: number;
  /** Quoted sha256 hex prefix, ready for an HTTP ETag header. */
  etag: string;
}

export interface BatchItem {
  index: number;
  customId?: string;
  prompt: string;
  size: string;
  status: ItemStatus;
  error?: ItemError;
  /** Generation attempts started (claimItem increments it); retryFailed resets it to 0. */
  attempts: number;
  blob?: BlobRef;
  expiresAt?: Date;
  /** The image was removed by retention; `blob` stays as a record of what was there. */
  expired?: boolean;
  updatedAt: Date;
}

export interface Batch {
  id: string;
  /** Name of the API key that created the batch. */
  owner: string;
  model: string;
  status: BatchStatus;
  createdAt: Date;
  completedAt?: Date;
  /** Set once the owner asked to cancel; a batch with this mark ends as `cancelled`. */
  cancelledAt?: Date;
  metadata?: Record<string, string>;
  idempotencyKey?: string;
  requestHash?: string;
  items: BatchItem[];
}

export interface NewBatchItem {
  customId?: string;
  prompt: string;
  size: string;
  /** Create the item already failed (e.g. `unsupported_size` known at submit); it never gets a job. */
  initialError?: ItemError;
}

export interface NewBatch {
  owner: string;
  model: string;
  items: NewBatchItem[];
  metadata?: Record<string, string>;
  idempotencyKey?: string;
  /** Hash of the request body; the plugin compares it when an idempotency key is replayed. */
  requestHash?: string;
}

export interface AdmissionLimits {
  /** Owner's queued + running items, this batch included, may not exceed this. */
  maxActiveItems?: number;
  /** Items in the owner's batches created at or after `since`, this batch included, may not exceed `maxItems`. */
  budget?: { since: Date; maxItems: number };
}

export interface CreateBatchOptions {
  /** How long an idempotency key returns its batch; older keys are released. Default 24 h. */
  idempotencyWindowMs?: number;
  /**
   * Checked in the same transaction as the insert (sqlite, postgres), so concurrent submits cannot overshoot
   * together; mongodb checks then inserts.
   */
  limits?: AdmissionLimits;
}

export type CreateBatchResult =
  | { outcome: 'created'; batch: Batch }
  | { outcome: 'existing'; batch: Batch }
  | { outcome: 'rejected'; limit: 'active_items' | 'budget'; current: number; max: number };

export interface BatchPage {
  batches: Batch[];
  hasMore: boolean;
}

export interface ItemPatch {
  status: ItemStatus;
  /** `null` clears a previous error; omitted keeps it. */
  error?: ItemError | null;
  blob?: BlobRef;
  expiresAt?: Date;
}

export interface TransitionGuard {
  /** Fencing token: only apply while the item's `attempts` still equals the value claimItem returned. */
  attempts?: number;
}

export interface ClaimedItem {
  batchId: string;
  owner: string;
  model: string;
  item: BatchItem;
}

export interface ItemRef {
  batchId: string;
  index: number;
}

export interface ExpiredBlob extends ItemRef {
  blobKey: string;
}

/** Result of an owner action that touches several items: the batch afterwards and which items changed. */
export interface ItemsChange {
  batch: Batch;
  indexes: number[];
}

/**
 * Batches and their items. Every method that changes items also recomputes the batch status (rules in status.ts):
 * in the same transaction on sqlite and postgres; on mongodb right after, with reads re-deriving it from the
 * embedded items. Either way a batch read never shows a status that disagrees with its items.
 */
export interface BatchRepository {
  /** Idempotency first (same owner + key inside the window → `existing`), then limits, then the insert. */
  createBatch(input: NewBatch, options?: CreateBatchOptions): Promise<CreateBatchResult>;
  /** Unscoped read for background workers. */
  findById(batchId: string): Promise<Batch | null>;
  /** Null when the batch does not exist or belongs to another owner. */
  findForOwner(owner: string, batchId: string): Promise<Batch | null>;
  /** Newest first; `after` is the id of the last batch of the previous page. */
  listForOwner(owner: string, page: { limit: number; after?: string }): Promise<BatchPage>;
  /**
   * Atomically moves one item queued → running (or takes over a running item whose last update is older than
   * `leaseMs`, i.e. its worker died) and increments `attempts`. Null when someone else holds it or it is done.
   */
  claimItem(batchId: string, index: number, leaseMs: number): Promise<ClaimedItem | null>;
  /**
   * Compare-and-set: applies `patch` only if the item's status is in `from`; true when it did. Every applied patch
   * stamps updatedAt, so running → running is the worker's lease heartbeat.
   */
  transitionItem(batchId: string, index: number, from: readonly ItemStatus[], patch: ItemPatch, guard?: TransitionGuard): Promise<boolean>;
  /** Failed items → queued (error cleared, attempts 0); succeeded items are never touched. */
  retryFailed(owner: string, batchId: string): Promise<ItemsChange | null>;
  /** Marks the batch cancelled and queued items cancelled; running items finish. No-op on a finished batch. */
  cancel(owner: string, batchId: string): Promise<ItemsChange | null>;
  /** Owner's queued + running items across all batches. */
  countActiveItems(owner: string): Promise<number>;
  /** Items of the owner's batches created at or after `since` (daily budget). */
  countItemsAdmittedSince(owner: string, since: Date): Promise<number>;
  /** Items whose image passed `expiresAt` and is not marked expired yet, oldest first. */
  listExpiredBlobs(limit: number): Promise<ExpiredBlob[]>;
  /** Marks the item's image expired (call after deleting the blob; listing again is harmless). */
  markExpired(batchId: string, index: number): Promise<boolean>;
  /** Running items not updated for `leaseMs` go back to queued; returns them so jobs can be scheduled again. */
  requeueStaleRunning(leaseMs: number, limit?: number): Promise<ItemRef[]>;
}

export interface BlobContent {
  stream: Readable;
  bytes: number;
  mimeType: string;
  etag: string;
}

/** Image bytes by key. Keys are `[A-Za-z0-9._-]` segments joined by `/`. */
export interface BlobStore {
  /** Stores (or replaces) the blob; it is complete before `put` resolves and before anyone can open it. */
  put(key: string, bytes: Buffer, mimeType: string): Promise<BlobRef>;
  /** Streams the blob; null when there is none. */
  open(key: string): Promise<BlobContent | null>;
  /** Idempotent. */
  delete(key: string): Promise<void>;
}

export interface Storage {
  readonly kind: StorageKind;
  /** Pass to `new Agenda({ backend })`. Shares the storage's connection, so `agenda.stop()` leaves it open. */
  readonly agendaBackend: AgendaBackend;
  readonly batches: BatchRepository;
  readonly blobs: BlobStore;
  /** Closes connections; stop every Agenda instance using `agendaBackend` first. */
  close(): Promise<void>;
}
