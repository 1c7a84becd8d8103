// One access-log record per request, built from the request context. Pure: no logger, no clock except
// `now` for requests whose end time the core did not record. Fields the core owns win over same-named
// entries plugins put in `ctx.logFields`. Nothing here can carry a key: the key *name* comes from
// `ctx.key`, paths and error messages go through redactUrl.
import { isGatewayError, redactUrl } from '../../src/index.ts';
import type { RequestContext } from '../../src/index.ts';

export interface AccessRecord {
  [field: string]: unknown;
}

const round = (ms: number): number => Math.round(ms * 100) / 100;

/** The request path with its query string, `key=` redacted. */
function loggedPath(ctx: RequestContext): string {
  if (ctx.path.includes('?') || Object.keys(ctx.query).length === 0) return redactUrl(ctx.path);
  const query = new URLSearchParams(ctx.query).toString();
  return redactUrl(query ? `${ctx.path}?${query}` : ctx.path);
}

function errorFields(error: Error): { status: number; error: { code: string; message: string } } {
  if (isGatewayError(error)) {
    return { status: error.status, error: { code: error.code, message: redactUrl(error.message) } };
  }
  return { status: 500, error: { code: 'internal_error', message: redactUrl(error.message) } };
}

export function accessRecord(ctx: RequestContext, now: number, error?: Error): AccessRecord {
  const { timings, response } = ctx;
  const failure = error === undefined ? undefined : errorFields(error);
  const ttfb = ctx.stream && timings.firstByte !== undefined ? round(timings.firstByte - timings.start) : undefined;
  // Unknown fields stay undefined: JSON leaves them out of the line. Built as one literal and extended
  // only by the few plugin fields, the object keeps V8's fast properties, which halves JSON.stringify.
  const record: AccessRecord = {
    time: new Date().toISOString(),
    requestId: ctx.id,
    keyName: ctx.key?.name,
    protocol: ctx.protocol,
    operation: ctx.operation,
    method: ctx.method,
    path: loggedPath(ctx),
    model: ctx.model,
    provider: ctx.route?.provider.id,
    upstreamModel: ctx.route?.target.model,
    // What the client saw: a stream that failed after its 200 went out still logs 200 plus the error.
    status: response?.status ?? failure?.status,
    latencyMs: round((timings.end ?? now) - timings.start),
    ttfbMs: ttfb,
    stream: ctx.stream,
    usage: response?.usage,
    dropped: ctx.dropped.length > 0 ? [...ctx.dropped] : undefined,
    error: failure?.error,
  };
  for (const [field, value] of Object.entries(ctx.logFields)) {
    if (!Object.hasOwn(record, field) || record[field] === undefined) record[field] = value;
  }
  return record;
}
