// Renders any failure in the client protocol's own error shape with the right status and headers.
import type { Response } from 'express';
import type { RequestProtocol } from '../core/context.ts';
import { GatewayError, isGatewayError } from '../errors/catalogue.ts';
import { errorBody, statusForProtocol } from '../protocols/error-shapes.ts';
import type { IRError } from '../protocols/ir.ts';

/** Wraps unknown throwables; body-parser and codec errors carry an HTTP status we keep. */
export function toGatewayError(error: unknown): GatewayError {
  if (isGatewayError(error)) return error;
  const err = error as { type?: string; status?: number; message?: string; param?: string; name?: string };
  if (err?.type === 'entity.too.large') {
    return new GatewayError('body_too_large', 'Request body is larger than the gateway allows (server.bodyLimit).');
  }
  if (err?.type === 'entity.parse.failed') {
    return new GatewayError('invalid_json', `Request body is not valid JSON: ${err.message ?? 'parse error'}`);
  }
  if (err?.name === 'CodecError' && typeof err.status === 'number') {
    return new GatewayError('invalid_request', err.message ?? 'invalid request', {
      status: err.status,
      ...(err.param ? { param: err.param } : {}),
    });
  }
  return new GatewayError('internal_error', 'The gateway hit an internal error.', { cause: error });
}

export function sendError(res: Response, protocol: RequestProtocol, error: GatewayError | IRError, requestId?: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const ir: IRError = isGatewayError(error) ? error.toIR() : error;
  if (isGatewayError(error)) for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.status(statusForProtocol(protocol, ir.status)).json(errorBody(protocol, ir, requestId));
}
