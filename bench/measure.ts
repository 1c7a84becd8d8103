// Rows are measured together, in rounds: each round runs every row's load once, in order, and a row's
// figures pool all its rounds. With BENCH_ROUNDS > 1, a burst of background load on a shared machine is
// spread over all rows instead of landing on one. Each row is warmed up (discarded) before its first
// round. Around every window, CPU time is read from each process involved, so a row also says who was
// busy: a proxy near 100 % of a core is the bottleneck; a load generator near 100 % means the figure is
// a floor, not the proxy's ceiling.
import type { LoadSample } from './load.ts';
import type { Service } from './services.ts';
import { percentiles } from './stats.ts';
import type { BenchContext, Row } from './types.ts';

export interface RowSpec {
  id: string;
  label: string;
  kind: Row['kind'];
  /** The proxy under test; absent when the load goes straight to the upstream. */
  target?: Service;
  upstream: Service;
  /** One load run of the given length. */
  load(durationS: number): Promise<LoadSample>;
}

interface CpuReading {
  target?: number;
  upstream: number;
  load: number;
}

/** Everything a row accumulates over its rounds. */
interface Pool {
  completed: number;
  failures: number;
  elapsedMs: number;
  latencies: number[];
  ttfb: number[];
  cpuMicros: { target: number; upstream: number; load: number };
}

async function readCpu(spec: RowSpec): Promise<CpuReading> {
  const [target, upstream] = await Promise.all([spec.target?.stats(), spec.upstream.stats()]);
  const own = process.cpuUsage();
  return { ...(target ? { target: target.cpuMicros } : {}), upstream: upstream.cpuMicros, load: own.user + own.system };
}

function emptyPool(): Pool {
  return { completed: 0, failures: 0, elapsedMs: 0, latencies: [], ttfb: [], cpuMicros: { target: 0, upstream: 0, load: 0 } };
}

async function measureOnce(spec: RowSpec, durationS: number, pool: Pool): Promise<void> {
  const before = await readCpu(spec);
  const sample = await spec.load(durationS);
  const after = await readCpu(spec);
  pool.completed += sample.completed;
  pool.failures += sample.failures;
  pool.elapsedMs += sample.elapsedMs;
  for (const value of sample.latencies) pool.latencies.push(value);
  for (const value of sample.ttfb ?? []) pool.ttfb.push(value);
  pool.cpuMicros.target += (after.target ?? 0) - (before.target ?? 0);
  pool.cpuMicros.upstream += after.upstream - before.upstream;
  pool.cpuMicros.load += after.load - before.load;
}

function toRow(spec: RowSpec, pool: Pool): Row {
  const share = (micros: number): number => (micros / 1000 / pool.elapsedMs) * 100;
  return {
    id: spec.id,
    label: spec.label,
    kind: spec.kind,
    requestsPerSec: (pool.completed / pool.elapsedMs) * 1000,
    latency: percentiles(pool.latencies),
    ...(spec.kind === 'stream' ? { ttfb: percentiles(pool.ttfb) } : {}),
    completed: pool.completed,
    failures: pool.failures,
    cpu: {
      ...(spec.target ? { target: share(pool.cpuMicros.target), targetMicrosPerRequest: pool.cpuMicros.target / pool.completed } : {}),
      upstream: share(pool.cpuMicros.upstream),
      load: share(pool.cpuMicros.load),
    },
  };
}

export async function measureRows(bench: BenchContext, specs: readonly RowSpec[]): Promise<Row[]> {
  const { durationS, warmupS, rounds } = bench.settings;
  const pools = specs.map(emptyPool);
  for (let round = 1; round <= rounds; round += 1) {
    for (const [index, spec] of specs.entries()) {
      const pool = pools[index] ?? emptyPool();
      pools[index] = pool;
      const warm = round === 1 && warmupS > 0;
      bench.log(`${spec.id}: ${spec.label}, round ${round}/${rounds}${warm ? ` (${warmupS} s warm-up)` : ''}, ${durationS} s`);
      if (warm) await spec.load(warmupS);
      await measureOnce(spec, durationS, pool);
    }
  }
  return specs.map((spec, index) => {
    const pool = pools[index] ?? emptyPool();
    if (pool.failures > 0) bench.log(`${spec.id}: ${pool.failures} failed responses: this row is not a valid measurement`);
    return toRow(spec, pool);
  });
}
