// An upstream's non-2xx answer, re-expressed in the client's protocol: same status (529 becomes 503 for
// non-Anthropic clients, in sendError), type/message mapped through the IR error, retry hints forwarded.
import type { Response } from 'express';
import type { RequestContext } from '../../core/context.ts';
import type { Codec } from '../../protocols/codec.ts';
import { statusForProtocol } from '../../protocols/error-shapes.ts';
import { sendError } from '../respond.ts';
import { parseJsonOr, readCapped, type UpstreamResponse } from './upstream.ts';

const MAX_ERROR_BODY = 64 * 1024;
const RETRY_STATUSES = new Set([429, 503, 529]);
const RETRY_HEADERS = ['retry-after', 'retry-after-ms'];

export async function relayUpstreamError(ctx: RequestContext, res: Response, upstream: UpstreamResponse, upstreamCodec: Codec): Promise<void> {
  const text = await readCapped(upstream.body, MAX_ERROR_BODY);
  const error = upstreamCodec.decodeError(upstream.status, parseJsonOr(text));
  if (RETRY_STATUSES.has(upstream.status)) {
    for (const name of RETRY_HEADERS) {
      const value = upstream.headers[name];
      if (typeof value === 'string') res.setHeader(name, value);
    }
  }
  const status = statusForProtocol(ctx.protocol, error.status);
  ctx.response = { status, headers: res.getHeaders(), streamed: false };
  ctx.logFields.upstreamStatus = upstream.status;
  sendError(res, ctx.protocol, error, ctx.id);
}
