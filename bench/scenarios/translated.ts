// Issue 3: the translated path. An Anthropic Messages client → the same OpenAI-type fake upstream, through
// the protocol-translate plugin, measured in the same rounds as the same-protocol Chat client so the two
// rows share whatever else the machine is doing; plus the in-process translation cost per chunk/request.
import { BENCH_KEY, benchGatewayConfig } from '../gateway-config.ts';
import { probe, runRequests } from '../load.ts';
import { measureRows } from '../measure.ts';
import type { RowSpec } from '../measure.ts';
import { BENCH_MODEL, chatRequest } from '../payloads.ts';
import type { Service } from '../services.ts';
import { runStreams } from '../stream-load.ts';
import { measureTranslationCost } from '../translate-cost.ts';
import type { BenchContext, Check, Figure, Row, Scenario, ScenarioResult } from '../types.ts';

export const TRANSLATED_TARGETS = { throughputRatio: 0.8 } as const;

interface Api {
  path: string;
  headers: Record<string, string>;
}

const CHAT: Api = { path: '/v1/chat/completions', headers: { 'content-type': 'application/json', authorization: `Bearer ${BENCH_KEY}` } };
const MESSAGES: Api = {
  path: '/v1/messages',
  headers: { 'content-type': 'application/json', 'x-api-key': BENCH_KEY, 'anthropic-version': '2023-06-01' },
};
const MESSAGE_STOP = 'event: message_stop\ndata: {"type":"message_stop"}\n\n';

/** The same question as chatRequest(), as an Anthropic Messages body. */
function messagesRequest(stream: boolean): string {
  return JSON.stringify({
    model: BENCH_MODEL,
    max_tokens: 128,
    temperature: 0.2,
    system: 'You are a concise assistant. Answer in plain prose.',
    messages: [{ role: 'user', content: 'Summarise the benefits of connection pooling in two sentences.' }],
    ...(stream ? { stream: true } : {}),
  });
}

const round = (value: number, digits = 2): number => Number(value.toFixed(digits));

function rowSpecs(bench: BenchContext, upstream: Service, gateway: Service): { requests: RowSpec[]; streams: RowSpec[] } {
  const { connections } = bench.settings;
  const request = (id: string, label: string, api: Api, body: string): RowSpec => ({
    id,
    label,
    kind: 'request',
    upstream,
    target: gateway,
    load: (durationS) => runRequests({ url: gateway.url + api.path, method: 'POST', headers: api.headers, body, connections, durationS }),
  });
  const stream = (id: string, label: string, api: Api, body: string, terminator?: string): RowSpec => ({
    id,
    label,
    kind: 'stream',
    upstream,
    target: gateway,
    load: (durationS) =>
      runStreams({ url: gateway.url + api.path, headers: api.headers, body, connections, durationS, ...(terminator ? { terminator } : {}) }),
  });
  return {
    requests: [
      request('t1', 'gateway, chat → openai (same protocol)', CHAT, chatRequest(false)),
      request('t2', 'gateway, messages → openai (translated)', MESSAGES, messagesRequest(false)),
    ],
    streams: [
      stream('t3', 'stream: gateway, chat → openai (same protocol)', CHAT, chatRequest(true)),
      stream('t4', 'stream: gateway, messages → openai (translated)', MESSAGES, messagesRequest(true), MESSAGE_STOP),
    ],
  };
}

type Cost = ReturnType<typeof measureTranslationCost>;

function figures({ t1, t2, t3, t4 }: { t1: Row; t2: Row; t3: Row; t4: Row }, cost: Cost): Figure[] {
  const cpu = (row: Row): number => row.cpu.targetMicrosPerRequest ?? Number.NaN;
  const ttfb = (row: Row): number => row.ttfb?.p50 ?? Number.NaN;
  const figure = (id: string, label: string, value: number, unit: string, digits = 3): Figure => ({ id, label, value: round(value, digits), unit });
  return [
    figure('translated_ratio', 'translated / same-protocol req/s (t2/t1)', t2.requestsPerSec / t1.requestsPerSec, '×'),
    figure('translated_added_p50', 'translated added p50 (t2 − t1)', t2.latency.p50 - t1.latency.p50, 'ms'),
    figure('translated_added_p99', 'translated added p99 (t2 − t1)', t2.latency.p99 - t1.latency.p99, 'ms'),
    figure('translated_cpu_per_request', 'gateway CPU per request, translated / same-protocol (t2/t1; steadier than req/s)', cpu(t2) / cpu(t1), '×'),
    figure('translated_stream_ratio', 'translated / same-protocol streams/s (t4/t3)', t4.requestsPerSec / t3.requestsPerSec, '×'),
    figure('translated_ttfb_added_p50', 'translated stream TTFB added p50 (t4 − t3)', ttfb(t4) - ttfb(t3), 'ms'),
    figure('translated_stream_cpu', 'gateway CPU per stream, translated / same-protocol (t4/t3)', cpu(t4) / cpu(t3), '×'),
    figure('translation_us_per_chunk', `translation cost per upstream chunk (SSE parse + decode + encode, ${cost.framesPerStream}-frame stream)`, cost.microsPerChunk, 'µs', 2),
    figure('translation_us_per_request', 'translation cost per non-stream request (request + response, both ways)', cost.microsPerRequest, 'µs', 2),
  ];
}

function checks({ t1, t2, t3, t4 }: { t1: Row; t2: Row; t3: Row; t4: Row }): Check[] {
  const target = TRANSLATED_TARGETS.throughputRatio;
  const check = (id: string, what: string, ratio: number): Check => ({
    id,
    target: `${what} ≥ ${target}× same-protocol`,
    actual: `${ratio.toFixed(2)}×`,
    pass: ratio >= target,
  });
  return [
    check('translated_throughput', 'translated req/s (t2/t1)', t2.requestsPerSec / t1.requestsPerSec),
    check('translated_stream_throughput', 'translated streams/s (t4/t3)', t4.requestsPerSec / t3.requestsPerSec),
  ];
}

export const translated: Scenario = {
  id: 'translated',
  title: 'Translated: Anthropic Messages client → OpenAI-type upstream, vs the same-protocol Chat client in the same run',
  async run(bench): Promise<ScenarioResult> {
    const { services, settings } = bench;
    const upstream = await services.upstream({ streamChunks: settings.streamChunks, chunkDelayMs: settings.chunkDelayMs });
    const config = benchGatewayConfig({ upstreamUrl: upstream.url, workDir: bench.workDir, plugins: ['protocol-translate'] });
    const gateway = await services.gateway({ config });
    await probe(gateway.url + CHAT.path, CHAT.headers, chatRequest(false));
    await probe(gateway.url + MESSAGES.path, MESSAGES.headers, messagesRequest(false));
    const specs = rowSpecs(bench, upstream, gateway);
    const [t1, t2] = await measureRows(bench, specs.requests);
    const [t3, t4] = await measureRows(bench, specs.streams);
    if (!t1 || !t2 || !t3 || !t4) throw new Error('translated: a row is missing');
    bench.log('translation cost: in-process loop');
    const cost = measureTranslationCost(settings.streamChunks);
    const rows = { t1, t2, t3, t4 };
    return { rows: [t1, t2, t3, t4], figures: figures(rows, cost), checks: checks(rows) };
  },
};
