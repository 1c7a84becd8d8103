// The built-in `mock` provider: a loopback HTTP server that speaks every protocol's real paths and
// shapes with no network and no keys. It echoes the last user message (streamed in several chunks)
// and draws placeholder PNGs for image calls, so demos, plugin authors and CI can try everything.
import http from 'node:http';
import { errorBody, kindForStatus } from '../../protocols/error-shapes.ts';
import type { ClientProtocol } from '../../protocols/ir.ts';
import { mockImages } from './images.ts';
import { mockCountTokens, mockGenerate } from './generate.ts';
import { listenOnLoopback } from './listen.ts';

export interface MockUpstream {
  url: string;
  close(): Promise<void>;
}

export interface MockOptions {
  latencyMs?: number;
  chunkDelayMs?: number;
}

const PROTOCOL_PATHS: Record<string, ClientProtocol> = {
  '/v1/chat/completions': 'chat',
  '/v1/responses': 'responses',
  '/v1/messages': 'messages',
};

function readJson(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        resolve(chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {});
      } catch (error) {
        reject(error);
      }
    });
    req.on('error', reject);
  });
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const data = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) });
  res.end(data);
}

async function route(req: http.IncomingMessage, res: http.ServerResponse, options: MockOptions): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://mock');
  const body = await readJson(req);
  if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));
  const direct = PROTOCOL_PATHS[url.pathname];
  if (direct) return mockGenerate(direct, body, {}, res, options);
  if (url.pathname === '/v1/messages/count_tokens') return sendJson(res, 200, mockCountTokens('messages', body, {}));
  if (url.pathname === '/v1/images/generations') return mockImages(body, res);
  const gemini = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/.exec(url.pathname);
  if (gemini) {
    const [, model = '', action] = gemini;
    const ctx = { model: decodeURIComponent(model), stream: action === 'streamGenerateContent' };
    if (action === 'countTokens') return sendJson(res, 200, mockCountTokens('gemini', body, ctx));
    return mockGenerate('gemini', body, ctx, res, { ...options, geminiSse: url.searchParams.get('alt') === 'sse' });
  }
  sendJson(res, 404, { error: { message: `mock provider has no route ${url.pathname}`, type: 'invalid_request_error' } });
}

export async function startMockUpstream(options: MockOptions = {}): Promise<MockUpstream> {
  const server = http.createServer((req, res) => {
    route(req, res, options).catch((error: unknown) => {
      const status = (error as { status?: number }).status ?? 400;
      const protocol = PROTOCOL_PATHS[new URL(req.url ?? '/', 'http://mock').pathname] ?? 'chat';
      if (res.headersSent) return void res.destroy();
      sendJson(res, status, errorBody(protocol, { status, kind: kindForStatus(status), message: (error as Error).message }));
    });
  });
  const { url, close } = await listenOnLoopback(server);
  return { url, close };
}
