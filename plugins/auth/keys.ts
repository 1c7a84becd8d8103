// The configured client keys as sha256 digests, looked up in constant time. Plain `key` entries are hashed
// once at start-up; `keyHash: sha256:<hex>` entries are used as given. The presented key is hashed and
// compared against every entry with crypto.timingSafeEqual, without stopping at the first match, so the
// time taken reveals neither whether a key exists nor which entry it matched.
import { hash, timingSafeEqual } from 'node:crypto';
import type { KeyIdentity, KeySettings } from '../../src/index.ts';

const HASH_PATTERN = /^sha256:([0-9a-f]{64})$/i;

interface KeyEntry {
  digest: Buffer;
  identity: KeyIdentity;
}

/** SHA-256 of the UTF-8 bytes; the one-shot `hash` skips creating a Hash object per request. */
export function sha256(value: string): Buffer {
  return hash('sha256', value, 'buffer');
}

function digestOf(settings: KeySettings, index: number): Buffer {
  if (settings.key !== undefined) return sha256(settings.key);
  const match = settings.keyHash === undefined ? null : HASH_PATTERN.exec(settings.keyHash);
  if (!match?.[1]) {
    throw new Error(`keys[${index}] (${settings.name}): keyHash must be "sha256:" followed by 64 hex digits`);
  }
  return Buffer.from(match[1], 'hex');
}

export class KeyStore {
  private readonly entries: readonly KeyEntry[];

  constructor(keys: readonly KeySettings[]) {
    this.entries = keys.map((settings, index) => ({
      digest: digestOf(settings, index),
      identity: Object.freeze({ name: settings.name, models: Object.freeze([...settings.models]) }),
    }));
  }

  /** The identity owning `presented`, or undefined. Runs in time independent of which entry matches. */
  find(presented: string): KeyIdentity | undefined {
    const digest = sha256(presented);
    let found: KeyIdentity | undefined;
    for (const entry of this.entries) {
      // Both digests are 32 bytes, as timingSafeEqual requires; the branch below only assigns.
      const equal = timingSafeEqual(entry.digest, digest);
      if (equal && found === undefined) found = entry.identity;
    }
    return found;
  }
}
