// One row = warm-up (discarded) + a measured window. Around the window, CPU time is read from every
// process involved, so each row also says who was busy: a proxy at ~100 % of a core is the bottleneck;
// a load generator at ~100 % means the figure is a floor, not the proxy's ceiling.
import type { LoadSample } from './load.ts';
import type { Service } from './services.ts';
import { percentiles } from './stats.ts';
import type { BenchContext, CpuShare, Row } from './types.ts';

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

async function readCpu(spec: RowSpec): Promise<CpuReading> {
  const [target, upstream] = await Promise.all([spec.target?.stats(), spec.upstream.stats()]);
  const own = process.cpuUsage();
  return { ...(target ? { target: target.cpuMicros } : {}), upstream: upstream.cpuMicros, load: own.user + own.system };
}

function share(before: CpuReading, after: CpuReading, elapsedMs: number): CpuShare {
  const pct = (from: number, to: number): number => ((to - from) / 1000 / elapsedMs) * 100;
  return {
    ...(before.target !== undefined && after.target !== undefined ? { target: pct(before.target, after.target) } : {}),
    upstream: pct(before.upstream, after.upstream),
    load: pct(before.load, after.load),
  };
}

export async function measureRow(bench: BenchContext, spec: RowSpec): Promise<Row> {
  const { durationS, warmupS } = bench.settings;
  bench.log(`${spec.id}: ${spec.label} (${warmupS} s warm-up, ${durationS} s measured)`);
  if (warmupS > 0) await spec.load(warmupS);
  const before = await readCpu(spec);
  const sample = await spec.load(durationS);
  const after = await readCpu(spec);
  if (sample.failures > 0) bench.log(`${spec.id}: ${sample.failures} failed responses: this row is not a valid measurement`);
  return {
    id: spec.id,
    label: spec.label,
    kind: spec.kind,
    requestsPerSec: (sample.completed / sample.elapsedMs) * 1000,
    latency: percentiles(sample.latencies),
    ...(sample.ttfb ? { ttfb: percentiles(sample.ttfb) } : {}),
    completed: sample.completed,
    failures: sample.failures,
    cpu: share(before, after, sample.elapsedMs),
  };
}
