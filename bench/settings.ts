// Bench knobs from the environment, each bounded so a typo cannot start an hour-long run.
import type { BenchSettings } from './types.ts';

type Env = Readonly<Record<string, string | undefined>>;

function bounded(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) throw new Error(`${name} must be a number from ${min} to ${max} (got "${raw}")`);
  return value;
}

export function readSettings(env: Env): BenchSettings {
  const cpuProfileDir = env.BENCH_CPU_PROF?.trim();
  return {
    durationS: bounded(env, 'BENCH_DURATION', 5, 1, 120),
    warmupS: bounded(env, 'BENCH_WARMUP', 1, 0, 30),
    rounds: Math.round(bounded(env, 'BENCH_ROUNDS', 1, 1, 10)),
    connections: Math.round(bounded(env, 'BENCH_CONNECTIONS', 10, 1, 512)),
    streamChunks: Math.round(bounded(env, 'BENCH_STREAM_CHUNKS', 20, 5, 1000)),
    chunkDelayMs: bounded(env, 'BENCH_CHUNK_DELAY_MS', 2, 0, 1000),
    ...(cpuProfileDir ? { cpuProfileDir } : {}),
  };
}

/** BENCH_ONLY=id,id: run only these scenarios (unknown ids are an error). */
export function selectedIds(env: Env, known: readonly string[]): readonly string[] {
  const raw = env.BENCH_ONLY?.trim();
  if (!raw) return known;
  const ids = raw.split(',').map((id) => id.trim()).filter(Boolean);
  const unknown = ids.filter((id) => !known.includes(id));
  if (unknown.length > 0) throw new Error(`BENCH_ONLY: unknown scenario ${unknown.join(', ')} (known: ${known.join(', ')})`);
  return ids;
}
