// Issue 4: image batches. A 200-item batch against a fake OpenAI-type image upstream answering after 50 ms,
// at a concurrency of 16 (16 lanes, 16 upstream calls in flight): items/s against the ideal 16 / 0.05 s.
// Then the batch's ZIP (200 incompressible images) is downloaded while the gateway's RSS is sampled: it
// must not grow with the size of the ZIP, which is streamed, never assembled in memory.
import { BENCH_KEY, benchGatewayConfig } from '../gateway-config.ts';
import type { ImageUpstreamOptions } from '../image-upstream.ts';
import type { Service } from '../services.ts';
import type { BenchContext, Check, Figure, Scenario, ScenarioResult } from '../types.ts';

/**
 * itemsRatio guards the design (16 lanes really running side by side: one lane alone would be 1/16 = 0.06×);
 * the rest of the gap to the ideal is CPU per image (decoding the upstream's base64 JSON, hashing, storing),
 * which the CPU figures below show.
 */
export const IMAGE_BATCH_TARGETS = { itemsRatio: 0.3, rssGrowthShare: 0.25 } as const;

const ITEMS = 200;
const WARMUP_ITEMS = 32;
const CONCURRENCY = 16;
const LATENCY_MS = 50;
const IMAGE_BYTES = 256 * 1024;
/** Polling costs the gateway a batch read per poll: slow while most items are still to come, fast near the end. */
const POLL_MS = { early: 100, late: 10 } as const;
const SAMPLE_MS = 25;
const BATCH_TIMEOUT_MS = 120_000;
const MB = 1024 * 1024;
const HEADERS = { 'content-type': 'application/json', authorization: `Bearer ${BENCH_KEY}` };
const round = (value: number, digits = 2): number => Number(value.toFixed(digits));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface BatchReply {
  id: string;
  status: string;
  archive_url?: string;
  request_counts: { succeeded: number };
}

/** Submits `items` prompts and polls until the batch is finished; returns it with the wall time. */
async function runBatch(gateway: Service, items: number): Promise<{ batch: BatchReply; elapsedMs: number }> {
  const body = JSON.stringify({ model: 'bench-image', items: Array.from({ length: items }, (_, n) => ({ prompt: `bench cover ${n}`, size: '256x256' })) });
  const started = performance.now();
  const submitted = await fetch(`${gateway.url}/v1/images/batches`, { method: 'POST', headers: HEADERS, body });
  if (submitted.status !== 202) throw new Error(`submit answered ${submitted.status}: ${await submitted.text()}`);
  const { id } = (await submitted.json()) as BatchReply;
  for (;;) {
    const reply = await fetch(`${gateway.url}/v1/images/batches/${id}`, { headers: HEADERS });
    const batch = (await reply.json()) as BatchReply;
    if (!['queued', 'running'].includes(batch.status)) return { batch, elapsedMs: performance.now() - started };
    if (performance.now() - started > BATCH_TIMEOUT_MS) throw new Error(`batch ${id} still ${batch.status} after ${BATCH_TIMEOUT_MS} ms`);
    await sleep(batch.request_counts.succeeded < 0.9 * items ? POLL_MS.early : POLL_MS.late);
  }
}

interface ArchiveRun {
  zipBytes: number;
  elapsedMs: number;
  rssBefore: number;
  rssMax: number;
}

/** Downloads the ZIP as fast as the client can read it, sampling the gateway's RSS meanwhile. */
async function downloadArchive(gateway: Service, archiveUrl: string): Promise<ArchiveRun> {
  const rssBefore = (await gateway.stats()).rss;
  let rssMax = rssBefore;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      rssMax = Math.max(rssMax, (await gateway.stats()).rss);
      await sleep(SAMPLE_MS);
    }
  })();
  const started = performance.now();
  let zipBytes = 0;
  try {
    const response = await fetch(`${gateway.url}${new URL(archiveUrl).pathname}`, { headers: HEADERS });
    if (response.status !== 200 || !response.body) throw new Error(`archive answered ${response.status}`);
    for await (const chunk of response.body) zipBytes += chunk.byteLength;
  } finally {
    done = true;
    await sampler;
  }
  return { zipBytes, elapsedMs: performance.now() - started, rssBefore, rssMax };
}

function report(batch: { elapsedMs: number; succeeded: number; cpuMicros: number }, archive: ArchiveRun): ScenarioResult {
  const itemsPerSec = batch.succeeded / (batch.elapsedMs / 1000);
  const ideal = CONCURRENCY / (LATENCY_MS / 1000);
  const growth = archive.rssMax - archive.rssBefore;
  const figures: Figure[] = [
    { id: 'batch_items_per_sec', label: `${ITEMS}-item batch, ${CONCURRENCY} lanes, ${LATENCY_MS} ms upstream: items/s`, value: round(itemsPerSec, 1), unit: 'items/s' },
    { id: 'batch_ideal_items_per_sec', label: `ideal (${CONCURRENCY} / ${LATENCY_MS / 1000} s)`, value: ideal, unit: 'items/s' },
    { id: 'batch_items_ratio', label: 'items/s ÷ ideal', value: round(itemsPerSec / ideal, 3), unit: '×' },
    { id: 'batch_wall_s', label: `submit → finished (polled every ${POLL_MS.late} ms near the end)`, value: round(batch.elapsedMs / 1000, 3), unit: 's' },
    { id: 'batch_gateway_cpu', label: 'gateway CPU during the batch (100 = one core busy)', value: round((batch.cpuMicros / 1000 / batch.elapsedMs) * 100, 0), unit: '%' },
    { id: 'batch_cpu_ms_per_item', label: 'gateway CPU per item', value: round(batch.cpuMicros / 1000 / Math.max(1, batch.succeeded), 2), unit: 'ms' },
    { id: 'archive_mb', label: `ZIP size (${ITEMS} images)`, value: round(archive.zipBytes / MB, 1), unit: 'MB' },
    { id: 'archive_mb_per_sec', label: 'ZIP download speed', value: round(archive.zipBytes / MB / (archive.elapsedMs / 1000), 1), unit: 'MB/s' },
    { id: 'archive_rss_before_mb', label: 'gateway RSS before the download', value: round(archive.rssBefore / MB, 1), unit: 'MB' },
    { id: 'archive_rss_max_mb', label: 'gateway RSS peak during the download', value: round(archive.rssMax / MB, 1), unit: 'MB' },
    { id: 'archive_rss_growth_mb', label: 'RSS growth while streaming the ZIP', value: round(growth / MB, 1), unit: 'MB' },
  ];
  const checks: Check[] = [
    {
      id: 'batch_items_ratio',
      target: `items/s ≥ ${IMAGE_BATCH_TARGETS.itemsRatio}× ideal (${ideal} items/s)`,
      actual: `${round(itemsPerSec, 1)} items/s (${round(itemsPerSec / ideal, 2)}×), ${batch.succeeded}/${ITEMS} succeeded`,
      pass: batch.succeeded === ITEMS && itemsPerSec >= IMAGE_BATCH_TARGETS.itemsRatio * ideal,
    },
    {
      id: 'archive_rss_growth',
      target: `RSS growth while streaming ≤ ${IMAGE_BATCH_TARGETS.rssGrowthShare}× the ZIP size`,
      actual: `${round(growth / MB, 1)} MB for a ${round(archive.zipBytes / MB, 1)} MB ZIP`,
      pass: growth <= IMAGE_BATCH_TARGETS.rssGrowthShare * archive.zipBytes,
    },
  ];
  return { rows: [], figures, checks };
}

async function run(bench: BenchContext): Promise<ScenarioResult> {
  const options: ImageUpstreamOptions = { latencyMs: LATENCY_MS, imageBytes: IMAGE_BYTES };
  const upstream = await bench.services.start('fake image upstream', new URL('../image-upstream.ts', import.meta.url), options);
  const config = benchGatewayConfig({
    upstreamUrl: upstream.url,
    workDir: bench.workDir,
    models: [{ name: 'bench-image', type: 'image', sizes: ['256x256'], targets: [{ provider: 'upstream', model: 'gpt-image-1' }] }],
    plugins: [{ 'image-batches': { maxItems: ITEMS, concurrency: { perBatch: CONCURRENCY, perProvider: CONCURRENCY } } }],
  });
  const gateway = await bench.services.gateway({ config });
  bench.log(`warm-up batch of ${WARMUP_ITEMS} items`);
  await runBatch(gateway, WARMUP_ITEMS);
  bench.log(`measured batch of ${ITEMS} items`);
  const cpuBefore = (await gateway.stats()).cpuMicros;
  const { batch, elapsedMs } = await runBatch(gateway, ITEMS);
  const cpuMicros = (await gateway.stats()).cpuMicros - cpuBefore;
  if (!batch.archive_url) throw new Error(`batch ${batch.id} ended ${batch.status} without an archive`);
  bench.log('streaming the ZIP');
  const archive = await downloadArchive(gateway, batch.archive_url);
  return report({ elapsedMs, succeeded: batch.request_counts.succeeded, cpuMicros }, archive);
}

export const imageBatch: Scenario = {
  id: 'image-batch',
  title: `Image batch: ${ITEMS} items at concurrency ${CONCURRENCY} (${LATENCY_MS} ms upstream), then its ZIP streamed`,
  run,
};
