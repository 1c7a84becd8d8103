// Fake OpenAI-type upstream (a bench service, run in its own process by services.ts): answers
// POST /v1/chat/completions with a fixed chat.completion, or with a fixed SSE stream when the body asks
// for `stream: true`: the first frame is written with the headers, then one frame every `chunkDelayMs`.
// Other scenarios add their endpoints to ROUTES.
import http from 'node:http';
import { CHAT_COMPLETION, chatStreamFrames } from './payloads.ts';
import type { StartedService } from './service-protocol.ts';
import { listenOnLoopback } from '../src/providers/mock/listen.ts';

export interface UpstreamOptions {
  /** SSE frames per stream, [DONE] included. */
  streamChunks: number;
  /** Pause between two SSE frames. */
  chunkDelayMs: number;
  /** Extra wait before any response starts (0: answer at once). */
  latencyMs?: number;
}

type Handler = (body: Buffer, res: http.ServerResponse) => void;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function sendJson(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function sendStream(res: http.ServerResponse, frames: readonly string[], delayMs: number): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  for (const [index, data] of frames.entries()) {
    if (res.destroyed) return;
    if (index > 0 && delayMs > 0) await sleep(delayMs);
    res.write(data);
  }
  res.end();
}

function wantsStream(body: Buffer): boolean {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && 'stream' in parsed && parsed.stream === true;
  } catch {
    return false;
  }
}

function routes(options: UpstreamOptions): Map<string, Handler> {
  const frames = chatStreamFrames(options.streamChunks);
  return new Map<string, Handler>([
    [
      'POST /v1/chat/completions',
      (body, res) => {
        if (wantsStream(body)) void sendStream(res, frames, options.chunkDelayMs);
        else sendJson(res, 200, CHAT_COMPLETION);
      },
    ],
  ]);
}

export async function start(options: UpstreamOptions): Promise<StartedService> {
  const table = routes(options);
  const latencyMs = options.latencyMs ?? 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const handler = table.get(`${req.method ?? 'GET'} ${(req.url ?? '/').split('?')[0] ?? '/'}`);
      const respond = (): void => {
        if (handler) handler(Buffer.concat(chunks), res);
        else sendJson(res, 404, JSON.stringify({ error: { message: `no fake route ${req.method} ${req.url}`, type: 'invalid_request_error' } }));
      };
      if (latencyMs > 0) setTimeout(respond, latencyMs);
      else respond();
    });
  });
  server.keepAliveTimeout = 65_000;
  const { url, close } = await listenOnLoopback(server);
  return { url, close };
}
