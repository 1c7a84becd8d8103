// The client-facing route table: which path speaks which protocol. Also the base-URL hints for 404s.
import type { Operation, RequestProtocol } from './core/context.ts';

export interface ProtocolRoute {
  method: 'GET' | 'POST';
  path: string;
  protocol: RequestProtocol | 'by-header';
  operation: Operation;
}

/** `by-header`: OpenAI shape, or Anthropic's when the request carries `anthropic-version`. */
export const PROTOCOL_ROUTES: readonly ProtocolRoute[] = [
  { method: 'POST', path: '/v1/chat/completions', protocol: 'chat', operation: 'generate' },
  { method: 'POST', path: '/v1/responses', protocol: 'responses', operation: 'generate' },
  { method: 'POST', path: '/v1/messages', protocol: 'messages', operation: 'generate' },
  { method: 'POST', path: '/v1/messages/count_tokens', protocol: 'messages', operation: 'count_tokens' },
  { method: 'GET', path: '/v1/models', protocol: 'by-header', operation: 'list_models' },
  { method: 'GET', path: '/v1/models/:id', protocol: 'by-header', operation: 'get_model' },
  { method: 'GET', path: '/v1beta/models', protocol: 'gemini', operation: 'list_models' },
  { method: 'GET', path: '/v1beta/models/:id', protocol: 'gemini', operation: 'get_model' },
];

/** Gemini generation paths: `/{version}/models/{model}:{action}` (route on the last colon). */
export const GEMINI_GENERATE_PATHS = ['/v1beta/models/:target', '/v1/models/:target', '/v1alpha/models/:target'];

export type GeminiAction = 'generateContent' | 'streamGenerateContent' | 'countTokens';

export function parseGeminiTarget(target: string): { model: string; action: GeminiAction } | undefined {
  const colon = target.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const action = target.slice(colon + 1);
  if (action !== 'generateContent' && action !== 'streamGenerateContent' && action !== 'countTokens') return undefined;
  return { model: target.slice(0, colon).replace(/^(models|tunedModels)\//, ''), action };
}

const KNOWN_TAILS = ['/chat/completions', '/responses', '/messages', '/messages/count_tokens', '/models', '/images/batches', '/embeddings', '/completions'];

/** A 404 message that explains the base-URL rule when the path looks like a doubled or missing /v1. */
export function notFoundHint(path: string): string {
  if (/^\/v1\/v1(\/|$)/.test(path)) {
    return `No route ${path}: the path has a doubled /v1. Set the client's base URL to {gateway} when the tool appends /v1/... itself, or to {gateway}/v1 when it asks for an OpenAI-compatible endpoint.`;
  }
  if (KNOWN_TAILS.some((tail) => path === tail || path.startsWith(`${tail}/`))) {
    return `No route ${path}: the path is missing /v1. OpenAI clients use {gateway}/v1 as base URL; Anthropic and Gemini clients use {gateway}.`;
  }
  return `No route ${path}. OpenAI endpoints live under /v1, Anthropic's under /v1/messages, Gemini's under /v1beta/models.`;
}

/** Which protocol's error shape a request to an unknown path should get. */
export function protocolForUnknownPath(path: string, headers: Readonly<Record<string, unknown>>): RequestProtocol {
  if (path.includes('/v1beta') || path.includes(':generateContent') || path.includes(':streamGenerateContent')) return 'gemini';
  if (headers['anthropic-version'] !== undefined || path.includes('/messages')) return 'messages';
  return 'chat';
}
