// The vocabulary shared by the orchestrator, the scenarios and the report: what a scenario is given,
// and the rows, figures and checks it hands back.
import type { Services } from './services.ts';

export interface BenchSettings {
  /** Measured seconds per row (BENCH_DURATION). */
  durationS: number;
  /** Discarded seconds of load before each measured row (BENCH_WARMUP). */
  warmupS: number;
  /** Interleaved rounds per group of rows, pooled (BENCH_ROUNDS). */
  rounds: number;
  /** Concurrent connections / client loops (BENCH_CONNECTIONS). */
  connections: number;
  /** Frames per fake-upstream SSE stream, [DONE] included (BENCH_STREAM_CHUNKS). */
  streamChunks: number;
  /** Fixed pause between two SSE frames of the fake upstream (BENCH_CHUNK_DELAY_MS). */
  chunkDelayMs: number;
  /** When set, the gateway child runs with --cpu-prof and writes its profile here (BENCH_CPU_PROF). */
  cpuProfileDir?: string;
}

export interface Percentiles {
  p50: number;
  p99: number;
  mean: number;
}

/** CPU used during the measured window, in % of one core (100 = one core fully busy). */
export interface CpuShare {
  /** The proxy under test (absent for direct-to-upstream rows). */
  target?: number;
  /** CPU time (user + system) the proxy under test spent per completed request, µs: unlike req/s, this
   * barely moves when other processes compete for the cores. */
  targetMicrosPerRequest?: number;
  upstream: number;
  /** This process: autocannon or the streaming client loop. */
  load: number;
}

export interface Row {
  id: string;
  label: string;
  kind: 'request' | 'stream';
  /** Completed 2xx responses per second over the measured window. */
  requestsPerSec: number;
  /** Whole response, ms (for streams: time to the last byte). */
  latency: Percentiles;
  /** Streams only: time to the first body byte, ms. */
  ttfb?: Percentiles;
  /** 2xx responses measured. */
  completed: number;
  /** Non-2xx responses, socket errors and timeouts: a row with failures is not a valid measurement. */
  failures: number;
  cpu: CpuShare;
}

export interface Figure {
  id: string;
  label: string;
  value: number;
  unit: string;
}

export interface Check {
  id: string;
  /** e.g. "gateway req/s ≥ 0.7× reference proxy". */
  target: string;
  /** The measured value, formatted. */
  actual: string;
  pass: boolean;
}

export interface ScenarioResult {
  rows: Row[];
  figures: Figure[];
  checks: Check[];
}

export interface BenchContext {
  readonly settings: BenchSettings;
  /** Child-process services; the orchestrator closes whatever a scenario leaves open. */
  readonly services: Services;
  /** Scratch directory of this run (access logs, storage), removed at the end. */
  readonly workDir: string;
  /** Rows of the scenarios that already ran, by id (for comparisons across scenarios). */
  readonly rows: ReadonlyMap<string, Row>;
  /** Progress line on stderr (stdout carries only the report). */
  log(message: string): void;
}

/** One module under bench/scenarios/ each; listed in bench/scenarios/index.ts in run order. */
export interface Scenario {
  id: string;
  title: string;
  run(bench: BenchContext): Promise<ScenarioResult>;
}
