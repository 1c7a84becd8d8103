// Fake OpenAI-type and Gemini-type image providers on 127.0.0.1:0, built on the recording fake upstream.
// Behaviour is chosen by markers inside the prompt, and every generation call is counted per prompt:
//   [policy]      refused under the content policy (OpenAI: 400 content_policy_violation; Gemini: IMAGE_SAFETY)
//   [blocked]     Gemini only: promptFeedback.blockReason
//   [flaky:N]     HTTP 503 for the first N calls of this prompt, then an image
//   [slow:MS]     waits MS before answering
//   [url]         OpenAI only: answers with a URL to the image (served by the same fake) instead of base64
import type http from 'node:http';
import { colourFor, solidPng } from '../../../src/providers/mock/png.ts';
import { sendJson, startFakeUpstream } from '../../helpers/fake-upstream.ts';
import type { FakeUpstream, RecordedRequest } from '../../helpers/fake-upstream.ts';

export interface FakeImageUpstream {
  url: string;
  upstream: FakeUpstream;
  /** Generation calls per prompt (downloads of [url] images are not counted). */
  calls: Map<string, number>;
  callsFor(prompt: string): number;
  totalCalls(): number;
  /** Added to every generation call. */
  latencyMs: number;
  close(): Promise<void>;
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function marker(prompt: string, name: string): number | undefined {
  const match = new RegExp(`\\[${name}:(\\d+)\\]`).exec(prompt);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** The image a prompt gets: a solid PNG of the requested size, its colour derived from the prompt. */
export function expectedPng(prompt: string, size: string): Buffer {
  const [width = 64, height = 64] = size.split('x').map(Number);
  return solidPng(width, height, colourFor(prompt));
}

function count(calls: Map<string, number>, prompt: string): number {
  const n = (calls.get(prompt) ?? 0) + 1;
  calls.set(prompt, n);
  return n;
}

function build(upstream: FakeUpstream, calls: Map<string, number>): FakeImageUpstream {
  const fake: FakeImageUpstream = {
    url: upstream.url,
    upstream,
    calls,
    callsFor: (prompt) => calls.get(prompt) ?? 0,
    totalCalls: () => [...calls.values()].reduce((sum, n) => sum + n, 0),
    latencyMs: 0,
    close: () => upstream.close(),
  };
  return fake;
}

/** Common prologue: count the call, apply latency / [slow] / [flaky]; true when a 503 was sent. */
async function prologue(fake: FakeImageUpstream, prompt: string, res: http.ServerResponse): Promise<boolean> {
  const n = count(fake.calls, prompt);
  const wait = fake.latencyMs + (marker(prompt, 'slow') ?? 0);
  if (wait > 0) await delay(wait);
  const flaky = marker(prompt, 'flaky');
  if (flaky !== undefined && n <= flaky) {
    sendJson(res, 503, { error: { message: 'The server is overloaded', type: 'server_error', code: null } }, { 'retry-after': '0' });
    return true;
  }
  return false;
}

export async function startFakeOpenAIImages(): Promise<FakeImageUpstream> {
  const files = new Map<string, Buffer>();
  const calls = new Map<string, number>();
  const upstream = await startFakeUpstream();
  const fake = build(upstream, calls);
  upstream.setHandler(async (req: RecordedRequest, res) => {
    const file = /^\/files\/([\w-]+)\.png$/.exec(req.path)?.[1];
    if (req.method === 'GET' && file) {
      const bytes = files.get(file);
      if (!bytes) return sendJson(res, 404, { error: 'no such file' });
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(bytes.length) });
      return void res.end(bytes);
    }
    if (req.method !== 'POST' || req.path !== '/v1/images/generations') return sendJson(res, 404, { error: { message: `unexpected ${req.method} ${req.path}` } });
    const body = req.body as { prompt: string; size: string };
    if (await prologue(fake, body.prompt, res)) return;
    if (body.prompt.includes('[policy]')) {
      return sendJson(res, 400, { error: { message: 'Your request was rejected as a result of our safety system.', type: 'invalid_request_error', param: null, code: 'content_policy_violation' } });
    }
    const png = expectedPng(body.prompt, body.size);
    if (body.prompt.includes('[url]')) {
      const id = `f${files.size}`;
      files.set(id, png);
      return sendJson(res, 200, { created: 1, data: [{ url: `${upstream.url}/files/${id}.png` }] });
    }
    sendJson(res, 200, { created: 1, data: [{ b64_json: png.toString('base64') }], output_format: 'png' });
  });
  return fake;
}

/** `[size:WxH]` in a Gemini prompt picks the PNG's size (Gemini itself only takes an aspect ratio). */
export async function startFakeGeminiImages(): Promise<FakeImageUpstream> {
  const calls = new Map<string, number>();
  const upstream = await startFakeUpstream();
  const fake = build(upstream, calls);
  upstream.setHandler(async (req, res) => {
    if (req.method !== 'POST' || !/^\/v1beta\/models\/[^/:]+:generateContent$/.test(req.path)) {
      return sendJson(res, 404, { error: { code: 404, message: `unexpected ${req.method} ${req.path}`, status: 'NOT_FOUND' } });
    }
    const body = req.body as { contents: Array<{ parts: Array<{ text: string }> }> };
    const prompt = body.contents[0]?.parts[0]?.text ?? '';
    if (await prologue(fake, prompt, res)) return;
    if (prompt.includes('[blocked]')) return sendJson(res, 200, { promptFeedback: { blockReason: 'PROHIBITED_CONTENT' } });
    if (prompt.includes('[policy]')) {
      return sendJson(res, 200, { candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'IMAGE_SAFETY' }] });
    }
    const png = expectedPng(prompt, /\[size:(\d+x\d+)\]/.exec(prompt)?.[1] ?? '64x64');
    sendJson(res, 200, {
      candidates: [{ content: { role: 'model', parts: [{ text: 'Here it is.' }, { inlineData: { mimeType: 'image/png', data: png.toString('base64') } }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 1290, totalTokenCount: 1295 },
    });
  });
  return fake;
}
