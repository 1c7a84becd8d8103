// The numbers the plugin runs on, derived once from its options and the gateway config.
import type { GatewayConfig } from '../../src/index.ts';
import { durationMs } from './schema.ts';
import type { ImageBatchesOptions } from './schema.ts';

export interface Settings {
  maxItems: number;
  maxAttempts: number;
  backoff: { baseMs: number; maxMs: number };
  perBatch: number;
  perProvider: number;
  /** Lanes (item jobs) one instance runs at once: perProvider for every provider an image model targets. */
  lanesPerInstance: number;
  maxActiveItemsPerKey: number;
  imagesPerDayPerKey: number;
  retentionMs: number;
  /** How often the retention job deletes expired images. */
  expireEveryMs: number;
  lockLifetimeMs: number;
  /** How often the recovery job looks for items whose worker stopped heart-beating. */
  recoverEveryMs: number;
  processEvery: number;
  pollAfterSeconds: number;
  download: { maxBytes: number; timeoutMs: number };
  publicUrl: string;
  shutdownTimeoutMs: number;
}

const MIN_EXPIRE_EVERY_MS = 1000;
const MAX_EXPIRE_EVERY_MS = 15 * 60 * 1000;

function imageProviders(config: GatewayConfig): Set<string> {
  const ids = new Set<string>();
  for (const model of config.models) {
    if (model.type !== 'image') continue;
    for (const target of model.targets) ids.add(target.provider);
  }
  return ids;
}

export function resolveSettings(options: ImageBatchesOptions, config: GatewayConfig): Settings {
  const retentionMs = durationMs(options.retention);
  const providers = Math.max(1, imageProviders(config).size);
  return {
    maxItems: options.maxItems,
    maxAttempts: options.maxAttempts,
    backoff: { baseMs: options.backoff.baseMs, maxMs: Math.max(options.backoff.baseMs, options.backoff.maxMs) },
    perBatch: options.concurrency.perBatch,
    perProvider: options.concurrency.perProvider,
    lanesPerInstance: options.concurrency.perProvider * providers,
    maxActiveItemsPerKey: options.limits.maxActiveItemsPerKey,
    imagesPerDayPerKey: options.limits.imagesPerDayPerKey,
    retentionMs,
    expireEveryMs: Math.min(MAX_EXPIRE_EVERY_MS, Math.max(MIN_EXPIRE_EVERY_MS, Math.floor(retentionMs / 4))),
    lockLifetimeMs: options.lockLifetimeMs,
    recoverEveryMs: Math.max(options.processEvery, Math.floor(options.lockLifetimeMs / 2)),
    processEvery: options.processEvery,
    pollAfterSeconds: options.pollAfterSeconds,
    download: { ...options.download },
    publicUrl: config.server.publicUrl.replace(/\/+$/, ''),
    shutdownTimeoutMs: config.server.shutdownTimeoutMs,
  };
}
