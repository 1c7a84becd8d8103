// A recording HTTP server on 127.0.0.1:0 standing in for a provider. Each test supplies the handler;
// every request (method, path, headers, parsed body) is recorded so tests can assert what went upstream.
import http from 'node:http';
import { listenOnLoopback } from '../../src/providers/mock/listen.ts';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  /** Resolves when the upstream request's connection closed (aborts show up here). */
  closed: Promise<void>;
  /** True once the client side went away before the response finished. */
  aborted: () => boolean;
}

export type FakeHandler = (req: RecordedRequest, res: http.ServerResponse) => void | Promise<void>;

export interface FakeUpstream {
  url: string;
  requests: RecordedRequest[];
  setHandler(handler: FakeHandler): void;
  close(): Promise<void>;
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const data = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(data)), ...headers });
  res.end(data);
}

/** Writes SSE text in pieces with a delay between them (to prove chunks are not buffered). */
export async function sendSse(res: http.ServerResponse, frames: readonly string[], delayMs = 0): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const frame of frames) {
    if (res.destroyed) return;
    res.write(frame);
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
  }
  res.end();
}

export async function startFakeUpstream(handler: FakeHandler = (_r, res) => sendJson(res, 200, {})): Promise<FakeUpstream> {
  let current = handler;
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // keep raw text
      }
      let aborted = false;
      const closed = new Promise<void>((resolve) =>
        res.once('close', () => {
          aborted = !res.writableFinished;
          resolve();
        }),
      );
      const record: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body, closed, aborted: () => aborted };
      requests.push(record);
      Promise.resolve(current(record, res)).catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: { message: String(error) } });
        else res.destroy();
      });
    });
  });
  const { url, close } = await listenOnLoopback(server);
  return {
    url,
    requests,
    setHandler(next) {
      current = next;
    },
    close,
  };
}
