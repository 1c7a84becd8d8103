// Fake OpenAI-type image provider (a bench service, run in its own process by services.ts): answers
// POST /v1/images/generations after `latencyMs` with one fixed PNG of random pixels (so neither the ZIP nor
// anything else can compress it away), base64 in `data[0].b64_json`, like gpt-image models do.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';
import type { StartedService } from './service-protocol.ts';

export interface ImageUpstreamOptions {
  /** Wait before each answer, ms. */
  latencyMs: number;
  /** Approximate size of the PNG every call returns, bytes. */
  imageBytes: number;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A valid RGB PNG of noise, about `bytes` long. */
export function noisePng(bytes: number): Buffer {
  const side = Math.max(1, Math.round(Math.sqrt(bytes / 3)));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.writeUInt8(8, 8);
  header.writeUInt8(2, 9);
  const raw = Buffer.alloc((1 + side * 3) * side);
  for (let y = 0; y < side; y += 1) randomBytes(side * 3).copy(raw, y * (1 + side * 3) + 1);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 1 })), chunk('IEND', Buffer.alloc(0))]);
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
