// Connection-level upstream failures → catalogue errors (ECONNREFUSED → 502, timeouts → 504).
import { GatewayError, isGatewayError } from '../errors/catalogue.ts';

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
const TIMEOUT = new Set(['GATEWAY_TIMEOUT', 'ETIMEDOUT', 'ESOCKETTIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT']);

function errorCode(error: unknown): string | undefined {
  const err = error as { code?: unknown; cause?: { code?: unknown }; name?: string };
  if (typeof err?.code === 'string') return err.code;
  if (typeof err?.cause?.code === 'string') return err.cause.code;
  if (err?.name === 'TimeoutError') return 'GATEWAY_TIMEOUT';
  return undefined;
}

export function upstreamFailure(error: unknown, providerId: string): GatewayError {
  if (isGatewayError(error)) return error;
  const code = errorCode(error);
  if (code && TIMEOUT.has(code)) {
    return new GatewayError('upstream_timeout', `Provider "${providerId}" did not answer in time.`, { cause: error });
  }
  const detail = code && UNREACHABLE.has(code) ? ` (${code})` : '';
  return new GatewayError('upstream_unreachable', `Provider "${providerId}" could not be reached${detail}.`, { cause: error });
}
