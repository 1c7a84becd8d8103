// Writes a translated stream to the client: headers on the first write (so an upstream failure before any
// output can still become a proper HTTP error), first-byte timing, and backpressure — when `write()`
// returns false the pipeline waits for 'drain' (or the client leaving) before reading more upstream.
import type { Response } from 'express';
import type { RequestContext } from '../../core/context.ts';

function drained(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

export class ClientSink {
  readonly #ctx: RequestContext;
  readonly #res: Response;
  readonly #contentType: string;
  #started = false;

  constructor(ctx: RequestContext, res: Response, contentType: string) {
    this.#ctx = ctx;
    this.#res = res;
    this.#contentType = contentType;
  }

  /** True once the 200 and the first bytes went out. */
  get started(): boolean {
    return this.#started;
  }

  get gone(): boolean {
    return this.#res.destroyed || this.#ctx.signal.aborted;
  }

  /** Resolves false when the client is gone (stop reading upstream). */
  async write(text: string): Promise<boolean> {
    if (this.gone) return false;
    if (text === '') return true;
    this.#start();
    this.#ctx.timings.firstByte ??= performance.now();
    if (!this.#res.write(text)) await drained(this.#res);
    return !this.gone;
  }

  end(): void {
    this.#start();
    this.#res.end();
  }

  #start(): void {
    if (this.#started) return;
    this.#started = true;
    const res = this.#res;
    res.status(200);
    res.setHeader('content-type', this.#contentType);
    res.setHeader('cache-control', 'no-cache');
    res.setHeader('x-accel-buffering', 'no');
    this.#ctx.response = { status: 200, headers: res.getHeaders(), streamed: true };
  }
}
