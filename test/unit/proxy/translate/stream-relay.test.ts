// The translated stream pipeline on its own: output is written as upstream input arrives, backpressure from a
// slow client stops the upstream reads, and the upstream body is cancelled when the client goes away.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import express from 'express';
import winston from 'winston';
import { createRequestContext } from '../../../../src/core/create-context.ts';
import type { RequestContext } from '../../../../src/core/context.ts';
import { codecFor } from '../../../../src/protocols/index.ts';
import { relayStream } from '../../../../src/proxy/translate/stream.ts';
import { checkMessagesStream } from '../../../helpers/grammar/messages.ts';

const silent = winston.createLogger({ silent: true });
const DELTA = 'x'.repeat(16 * 1024);
const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'up', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

interface Source {
  body: ReadableStream<Uint8Array>;
  pulled: () => number;
  cancelled: () => boolean;
}

/** An upstream SSE body produced on demand: `count` text deltas, each pulled only when the reader wants it. */
function upstreamSource(count: number): Source {
  const encoder = new TextEncoder();
  let pulled = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled === 0) controller.enqueue(encoder.encode(chunk({ role: 'assistant', content: '' })));
        if (pulled < count) controller.enqueue(encoder.encode(chunk({ content: DELTA })));
        else {
          controller.enqueue(encoder.encode(chunk({}, 'stop') + 'data: [DONE]\n\n'));
          controller.close();
        }
        pulled += 1;
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { body, pulled: () => pulled, cancelled: () => cancelled };
}

async function serve(source: Source): Promise<{ url: string; ctx: Promise<RequestContext>; close: () => Promise<void> }> {
  let resolveCtx!: (ctx: RequestContext) => void;
  const ctxReady = new Promise<RequestContext>((r) => (resolveCtx = r));
  const app = express();
  app.post('/', (req, res) => {
    const abort = new AbortController();
    res.once('close', () => abort.abort());
    const ctx = createRequestContext({ protocol: 'messages', operation: 'generate', method: 'POST', path: '/', headers: req.headers, query: {}, signal: abort.signal });
    ctx.stream = true;
    resolveCtx(ctx);
    const request = { model: 'm', messages: [], stream: true };
    const plan = { decoder: codecFor('chat').createStreamDecoder(), encoder: codecFor('messages').createStreamEncoder({ request, clientModel: 'm' }), contentType: 'text/event-stream' };
    void relayStream(ctx, res, source.body, plan, silent);
  });
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { url, ctx: ctxReady, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('translated stream relay', () => {
  it('stops reading upstream while the client does not read, and resumes after', async () => {
    const total = 3000; // 3000 × 16 KiB ≈ 48 MiB: far more than socket buffers hold
    const source = upstreamSource(total);
    const server = await serve(source);
    try {
      const response = await new Promise<http.IncomingMessage>((resolve) => http.request(server.url, { method: 'POST' }, resolve).end());
      response.pause();
      await sleep(300);
      const stalledAt = source.pulled();
      await sleep(200);
      expect(source.pulled(), 'no upstream reads while the client is stalled').to.equal(stalledAt);
      expect(stalledAt).to.be.lessThan(total / 2);
      let bytes = 0;
      let text = '';
      response.on('data', (c: Buffer) => {
        bytes += c.length;
        text = (text + c.toString('latin1')).slice(-200);
      });
      response.resume();
      await new Promise((r) => response.once('end', r));
      expect(source.pulled()).to.equal(total + 1);
      expect(bytes).to.be.greaterThan(total * DELTA.length);
      expect(text).to.include('message_stop');
    } finally {
      await server.close();
    }
  });

  it('cancels the upstream body when the client disconnects', async () => {
    const source = upstreamSource(100_000);
    const server = await serve(source);
    try {
      const req = http.request(server.url, { method: 'POST' }, (res) => {
        res.once('data', () => req.destroy());
      });
      req.on('error', () => undefined);
      req.end();
      const ctx = await server.ctx;
      await new Promise((r) => ctx.signal.addEventListener('abort', r));
      await sleep(50);
      expect(source.cancelled()).to.equal(true);
      expect(source.pulled()).to.be.lessThan(100_000);
    } finally {
      await server.close();
    }
  });

  it('writes the first event before the upstream has finished', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(encoder.encode(chunk({ role: 'assistant', content: '' }) + chunk({ content: 'first' })));
        await gate;
        controller.enqueue(encoder.encode(chunk({}, 'stop') + 'data: [DONE]\n\n'));
        controller.close();
      },
    });
    const server = await serve({ body, pulled: () => 0, cancelled: () => false });
    try {
      const response = await new Promise<http.IncomingMessage>((resolve) => http.request(server.url, { method: 'POST' }, resolve).end());
      const first = await new Promise<string>((resolve) => response.once('data', (c: Buffer) => resolve(c.toString())));
      expect(first).to.include('message_start');
      const rest = new Promise<string>((resolve) => {
        let text = '';
        response.on('data', (c: Buffer) => (text += c.toString()));
        response.once('end', () => resolve(text));
      });
      release();
      expect(checkMessagesStream(first + (await rest))).to.deep.equal([]);
    } finally {
      await server.close();
    }
  });
});
