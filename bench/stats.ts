// Percentiles over raw samples (ms, sub-millisecond precision kept).
import type { Percentiles } from './types.ts';

/** Nearest-rank percentile of an ascending array. */
function rank(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

export function percentiles(samples: readonly number[]): Percentiles {
  const sorted = Float64Array.from(samples).sort();
  const mean = sorted.length === 0 ? Number.NaN : sorted.reduce((sum, v) => sum + v, 0) / sorted.length;
  return { p50: rank(sorted, 50), p99: rank(sorted, 99), mean };
}
