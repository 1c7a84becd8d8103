// Mock OpenAI-style image generation: placeholder PNGs of the requested size. Prompts containing
// `[mock:policy]` or `[mock:500]` simulate a content-policy rejection or an upstream fault.
import type http from 'node:http';
import { colourFor, solidPng } from './png.ts';

const MAX_SIDE = 4096;

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const data = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) });
  res.end(data);
}

export function mockImages(body: unknown, res: http.ServerResponse): void {
  const request = (body ?? {}) as { prompt?: unknown; size?: unknown; n?: unknown };
  const prompt = typeof request.prompt === 'string' ? request.prompt : '';
  if (!prompt) return send(res, 400, { error: { message: "Missing required parameter: 'prompt'.", type: 'invalid_request_error', param: 'prompt', code: null } });
  if (prompt.includes('[mock:policy]')) {
    return send(res, 400, {
      error: { message: 'Your request was rejected as a result of our safety system.', type: 'invalid_request_error', param: null, code: 'content_policy_violation' },
    });
  }
  if (prompt.includes('[mock:500]')) return send(res, 500, { error: { message: 'mock upstream fault', type: 'server_error', param: null, code: null } });
  const match = /^(\d+)x(\d+)$/.exec(typeof request.size === 'string' ? request.size : '1024x1024');
  const width = Number(match?.[1] ?? 1024);
  const height = Number(match?.[2] ?? 1024);
  if (!match || width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) {
    return send(res, 400, { error: { message: `Invalid size '${String(request.size)}'.`, type: 'invalid_request_error', param: 'size', code: null } });
  }
  const n = typeof request.n === 'number' && request.n >= 1 && request.n <= 10 ? request.n : 1;
  const png = solidPng(width, height, colourFor(prompt)).toString('base64');
  send(res, 200, { created: Math.floor(Date.now() / 1000), data: Array.from({ length: n }, () => ({ b64_json: png })), output_format: 'png', size: `${width}x${height}` });
}
