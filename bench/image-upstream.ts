// Fake OpenAI-type image provider (a bench service, run in its own process by services.ts): answers
// POST /v1/images/generations after `latencyMs` with one fixed PNG of random pixels (so neither the ZIP nor
// anything else can compress it away), base64 in `data[0].b64_json`, like gpt-image models do.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { rgbPng } from '../src/providers/mock/png.ts';
import type { StartedService } from './service-protocol.ts';
import { listenOnLoopback } from '../src/providers/mock/listen.ts';

export interface ImageUpstreamOptions {
  /** Wait before each answer, ms. */
  latencyMs: number;
  /** Approximate size of the PNG every call returns, bytes. */
  imageBytes: number;
}

/** A valid RGB PNG of noise, about `bytes` long. */
export function noisePng(bytes: number): Buffer {
  const side = Math.max(1, Math.round(Math.sqrt(bytes / 3)));
  const raw = Buffer.alloc((1 + side * 3) * side);
  for (let y = 0; y < side; y += 1) randomBytes(side * 3).copy(raw, y * (1 + side * 3) + 1);
  return rgbPng(side, side, raw, 1);
}

export async function start(options: ImageUpstreamOptions): Promise<StartedService> {
  const body = JSON.stringify({ created: 1735689600, data: [{ b64_json: noisePng(options.imageBytes).toString('base64') }], output_format: 'png' });
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/images/generations') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no fake route ${req.method} ${req.url}` } }));
        return;
      }
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      }, options.latencyMs);
    });
  });
  server.keepAliveTimeout = 65_000;
  const { url, close } = await listenOnLoopback(server);
  return { url, close };
}
