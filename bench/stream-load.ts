// Streaming load: `connections` client loops, each sending one streaming request after another over a
// keep-alive agent until the duration is up. autocannon only sees whole responses, so this loop times
// the first body byte (TTFB) and the last (TTLB) itself. A response counts only if it is a 200 whose
// body ends with the protocol's closing frame (`[DONE]` unless `terminator` says otherwise).
import http from 'node:http';
import type { LoadSample } from './load.ts';

export interface StreamLoad {
  url: string;
  headers: Record<string, string>;
  body: string;
  connections: number;
  durationS: number;
  /** The frame a complete stream ends with (default Chat's `data: [DONE]`). */
  terminator?: string;
}

const TIMEOUT_MS = 10_000;
const DONE_FRAME = Buffer.from('data: [DONE]\n\n');

interface Timing {
  ttfb: number;
  ttlb: number;
}

function streamOnce(url: URL, load: StreamLoad, agent: http.Agent): Promise<Timing | undefined> {
  const terminator = load.terminator === undefined ? DONE_FRAME : Buffer.from(load.terminator);
  return new Promise((resolve) => {
    const started = performance.now();
    let first: number | undefined;
    let tail: Buffer = Buffer.alloc(0);
    const req = http.request(url, { method: 'POST', agent, headers: { ...load.headers, 'content-length': Buffer.byteLength(load.body) } }, (res) => {
      res.on('data', (chunk: Buffer) => {
        first ??= performance.now();
        tail = chunk.length >= terminator.length ? chunk : Buffer.concat([tail, chunk]).subarray(-terminator.length);
      });
      res.once('end', () => {
        const ok = res.statusCode === 200 && first !== undefined && tail.subarray(-terminator.length).equals(terminator);
        resolve(ok && first !== undefined ? { ttfb: first - started, ttlb: performance.now() - started } : undefined);
      });
      res.once('error', () => resolve(undefined));
    });
    req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error('stream timed out')));
    req.once('error', () => resolve(undefined));
    req.end(load.body);
  });
}

export async function runStreams(load: StreamLoad): Promise<LoadSample> {
  const url = new URL(load.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: load.connections });
  const ttfb: number[] = [];
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  const deadline = started + load.durationS * 1000;
  const loop = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const timing = await streamOnce(url, load, agent);
      if (timing === undefined) {
        failures += 1;
        continue;
      }
      ttfb.push(timing.ttfb);
      latencies.push(timing.ttlb);
    }
  };
  await Promise.all(Array.from({ length: load.connections }, loop));
  const elapsedMs = performance.now() - started;
  agent.destroy();
  return { completed: latencies.length, failures, elapsedMs, latencies, ttfb };
}
