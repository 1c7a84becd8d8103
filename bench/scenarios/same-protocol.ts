// Issue 2: the same-protocol fast path. OpenAI Chat Completions client → OpenAI-type fake upstream,
// measured (a) direct, (b) through the reference Node proxy, (c) through the gateway, and the same three
// for streaming (d), where TTFB and TTLB are timed by our own client loop.
import { BENCH_KEY, benchGatewayConfig } from '../gateway-config.ts';
import { probe, runRequests } from '../load.ts';
import { measureRows } from '../measure.ts';
import type { RowSpec } from '../measure.ts';
import { chatRequest } from '../payloads.ts';
import type { Service } from '../services.ts';
import { runStreams } from '../stream-load.ts';
import type { BenchContext, Check, Figure, Row, Scenario, ScenarioResult } from '../types.ts';

const PATH = '/v1/chat/completions';
const HEADERS = { 'content-type': 'application/json', authorization: `Bearer ${BENCH_KEY}` };

export const TARGETS = { throughputRatio: 0.7, addedP50Ms: 1, ttfbOverheadMs: 2 } as const;

const MB = 1024 * 1024;
const round = (value: number, digits = 2): number => Number(value.toFixed(digits));

interface Endpoints {
  upstream: Service;
  reference: Service;
  gateway: Service;
}

async function requestRows(bench: BenchContext, { upstream, reference, gateway }: Endpoints): Promise<Row[]> {
  const body = chatRequest(false);
  const { connections } = bench.settings;
  const spec = (id: string, label: string, base: Service, target?: Service): RowSpec => ({
    id,
    label,
    kind: 'request',
    upstream,
    ...(target ? { target } : {}),
    load: (durationS) => runRequests({ url: base.url + PATH, method: 'POST', headers: HEADERS, body, connections, durationS }),
  });
  for (const base of [upstream, reference, gateway]) await probe(base.url + PATH, HEADERS, body);
  return measureRows(bench, [
    spec('a', 'direct → fake upstream', upstream),
    spec('b', 'reference Node proxy', reference, reference),
    spec('c', 'gateway, chat → openai (same protocol)', gateway, gateway),
  ]);
}

async function streamRows(bench: BenchContext, { upstream, reference, gateway }: Endpoints): Promise<Row[]> {
  const body = chatRequest(true);
  const { connections } = bench.settings;
  const spec = (id: string, label: string, base: Service, target?: Service): RowSpec => ({
    id,
    label,
    kind: 'stream',
    upstream,
    ...(target ? { target } : {}),
    load: (durationS) => runStreams({ url: base.url + PATH, headers: HEADERS, body, connections, durationS }),
  });
  return measureRows(bench, [
    spec('d0', 'stream: direct → fake upstream', upstream),
    spec('d1', 'stream: reference Node proxy', reference, reference),
    spec('d', 'stream: gateway (same protocol)', gateway, gateway),
  ]);
}

interface Memory {
  gatewayPeakRss: number;
  referencePeakRss: number;
}

function figuresAndChecks(rows: { a: Row; b: Row; c: Row; d0: Row; d: Row }, memory: Memory, connections: number) {
  const load = `${connections} connection${connections === 1 ? '' : 's'}`;
  const { a, b, c, d0, d } = rows;
  const ratio = c.requestsPerSec / b.requestsPerSec;
  const addedVsReference = c.latency.p50 - b.latency.p50;
  const addedVsDirect = c.latency.p50 - a.latency.p50;
  const ttfbOverhead = (d.ttfb?.p50 ?? Number.NaN) - (d0.ttfb?.p50 ?? Number.NaN);
  const ttlbOverhead = d.latency.p50 - d0.latency.p50;
  const cpuRatio = (c.cpu.targetMicrosPerRequest ?? Number.NaN) / (b.cpu.targetMicrosPerRequest ?? Number.NaN);
  const figures: Figure[] = [
    { id: 'throughput_ratio_c_b', label: 'gateway / reference proxy req/s (c/b)', value: round(ratio, 3), unit: '×' },
    { id: 'added_p50_c_b', label: 'added p50 latency vs reference proxy (c − b)', value: round(addedVsReference, 3), unit: 'ms' },
    { id: 'added_p50_c_a', label: 'added p50 latency vs direct (c − a)', value: round(addedVsDirect, 3), unit: 'ms' },
    { id: 'ttfb_overhead_p50', label: 'stream TTFB overhead p50 (d − d0)', value: round(ttfbOverhead, 3), unit: 'ms' },
    { id: 'ttlb_overhead_p50', label: 'stream TTLB overhead p50 (d − d0)', value: round(ttlbOverhead, 3), unit: 'ms' },
    { id: 'cpu_per_request_c', label: 'gateway CPU per request (c)', value: round(c.cpu.targetMicrosPerRequest ?? Number.NaN, 0), unit: 'µs' },
    { id: 'cpu_per_request_b', label: 'reference proxy CPU per request (b)', value: round(b.cpu.targetMicrosPerRequest ?? Number.NaN, 0), unit: 'µs' },
    { id: 'cpu_ratio_c_b', label: 'gateway / reference CPU per request (c/b)', value: round(cpuRatio, 2), unit: '×' },
    { id: 'gateway_peak_rss', label: 'gateway peak RSS (VmHWM, whole run)', value: round(memory.gatewayPeakRss / MB, 1), unit: 'MB' },
    { id: 'reference_peak_rss', label: 'reference proxy peak RSS', value: round(memory.referencePeakRss / MB, 1), unit: 'MB' },
  ];
  const checks: Check[] = [
    {
      id: 'throughput',
      target: `gateway req/s ≥ ${TARGETS.throughputRatio}× reference proxy`,
      actual: `${ratio.toFixed(2)}×`,
      pass: ratio >= TARGETS.throughputRatio,
    },
    {
      id: 'added_p50_vs_reference',
      target: `added p50 ≤ ${TARGETS.addedP50Ms} ms at ${load}, vs reference proxy (c − b)`,
      actual: `${addedVsReference.toFixed(2)} ms`,
      pass: addedVsReference <= TARGETS.addedP50Ms,
    },
    {
      id: 'added_p50_vs_direct',
      target: `added p50 ≤ ${TARGETS.addedP50Ms} ms at ${load}, vs direct (c − a)`,
      actual: `${addedVsDirect.toFixed(2)} ms`,
      pass: addedVsDirect <= TARGETS.addedP50Ms,
    },
    {
      id: 'ttfb_overhead',
      target: `stream TTFB overhead p50 ≤ ${TARGETS.ttfbOverheadMs} ms (d − d0)`,
      actual: `${ttfbOverhead.toFixed(2)} ms`,
      pass: ttfbOverhead <= TARGETS.ttfbOverheadMs,
    },
  ];
  return { figures, checks };
}

export const sameProtocol: Scenario = {
  id: 'same-protocol',
  title: 'Same protocol: OpenAI Chat Completions client → OpenAI-type upstream',
  async run(bench): Promise<ScenarioResult> {
    const { services, settings } = bench;
    const upstream = await services.upstream({ streamChunks: settings.streamChunks, chunkDelayMs: settings.chunkDelayMs });
    const reference = await services.referenceProxy({ target: upstream.url });
    const gateway = await services.gateway({ config: benchGatewayConfig({ upstreamUrl: upstream.url, workDir: bench.workDir }) });
    const endpoints = { upstream, reference, gateway };
    const [a, b, c] = await requestRows(bench, endpoints);
    const [d0, d1, d] = await streamRows(bench, endpoints);
    if (!a || !b || !c || !d0 || !d1 || !d) throw new Error('same-protocol: a row is missing');
    const [gatewayStats, referenceStats] = await Promise.all([gateway.stats(), reference.stats()]);
    const memory = { gatewayPeakRss: gatewayStats.peakRss, referencePeakRss: referenceStats.peakRss };
    const { figures, checks } = figuresAndChecks({ a, b, c, d0, d }, memory, settings.connections);
    return { rows: [a, b, c, d0, d1, d], figures, checks };
  },
};
