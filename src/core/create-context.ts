// Builds the per-request context; the only place that decides its initial shape.
import { randomUUID } from 'node:crypto';
import type { Operation, RequestContext, RequestProtocol } from './context.ts';

export interface ContextInit {
  protocol: RequestProtocol;
  operation: Operation;
  method: string;
  path: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  query: Readonly<Record<string, string>>;
  signal: AbortSignal;
  /** A client-supplied request id is kept only when it is short and plain. */
  incomingRequestId?: string;
}

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function createRequestContext(init: ContextInit): RequestContext {
  const id = init.incomingRequestId && SAFE_ID.test(init.incomingRequestId) ? init.incomingRequestId : `req_${randomUUID().replace(/-/g, '')}`;
  return {
    id,
    protocol: init.protocol,
    operation: init.operation,
    method: init.method,
    path: init.path,
    headers: init.headers,
    query: init.query,
    timings: { start: performance.now() },
    stream: false,
    dropped: [],
    logFields: {},
    pluginState: new Map(),
    signal: init.signal,
  };
}
