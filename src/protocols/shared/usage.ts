// IR usage arithmetic shared by the codecs' response and stream encoders.
import type { IRUsage } from '../ir.ts';

/** Every protocol's usage object requires input and output counts: absent ones become 0. */
export function fullUsage(partial: Partial<IRUsage>): IRUsage {
  return { ...partial, inputTokens: partial.inputTokens ?? 0, outputTokens: partial.outputTokens ?? 0 };
}

/** Stream usage events are cumulative snapshots: later values win, absent fields keep earlier ones. */
export function mergeUsage(base: Partial<IRUsage>, next: Partial<IRUsage>): Partial<IRUsage> {
  const out = { ...base };
  for (const [key, value] of Object.entries(next) as Array<[keyof IRUsage, number | undefined]>) {
    if (typeof value === 'number') out[key] = value;
  }
  return out;
}
