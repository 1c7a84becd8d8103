// Where each client protocol carries its key (protocols.md §0.5), and the gateway's own rules on top:
// Anthropic Messages needs `anthropic-version`, and answers a Bearer token with 401 unless the operator
// opted in with `anthropicBearer: accept`. Returns the presented key or throws a GatewayError; messages
// name the header to send and never echo a key.
import { GatewayError } from '../../src/index.ts';
import type { RequestContext } from '../../src/index.ts';
import type { AuthOptions } from './schema.ts';

export const ANTHROPIC_VERSION = '2023-06-01';
const DATED_VERSION = /^\d{4}-\d{2}-\d{2}$/;
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

type Headers = RequestContext['headers'];

/** First non-empty value of a header (Node joins or lists repeated headers). */
function header(headers: Headers, name: string): string | undefined {
  const raw = headers[name];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return value ? value : undefined;
}

function bearerToken(headers: Headers): string | undefined {
  const authorization = header(headers, 'authorization');
  return authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
}

function missing(how: string): GatewayError {
  return new GatewayError('missing_api_key', `Missing API key: send it as ${how}.`);
}

function openAiKey(ctx: RequestContext): string {
  const key = bearerToken(ctx.headers) ?? header(ctx.headers, 'api-key');
  if (key === undefined) throw missing('`Authorization: Bearer <key>` (or `api-key: <key>`)');
  return key;
}

function geminiKey(ctx: RequestContext): string {
  const fromQuery = ctx.query.key?.trim();
  const key = header(ctx.headers, 'x-goog-api-key') ?? (fromQuery ? fromQuery : undefined) ?? bearerToken(ctx.headers);
  if (key === undefined) throw missing('`x-goog-api-key: <key>` (or the `key` query parameter)');
  return key;
}

function anthropicKey(ctx: RequestContext, options: AuthOptions): string {
  const bearer = bearerToken(ctx.headers);
  if (bearer !== undefined && options.anthropicBearer === 'reject') {
    throw new GatewayError(
      'bearer_on_anthropic',
      'Authorization: Bearer is not accepted on the Anthropic Messages API: send the key as `x-api-key: <key>`.',
    );
  }
  const key = header(ctx.headers, 'x-api-key') ?? bearer;
  if (key === undefined) throw missing('`x-api-key: <key>`');
  return key;
}

/** Anthropic clients must say which API version they speak; any dated version is accepted and forwarded. */
export function checkAnthropicVersion(ctx: RequestContext): void {
  const version = header(ctx.headers, 'anthropic-version');
  if (version === undefined) {
    throw new GatewayError(
      'missing_anthropic_version',
      `anthropic-version: header is required (the documented value is ${ANTHROPIC_VERSION}).`,
      { param: 'anthropic-version' },
    );
  }
  if (!DATED_VERSION.test(version)) {
    throw new GatewayError(
      'invalid_request',
      `anthropic-version: must be a date such as ${ANTHROPIC_VERSION}.`,
      { param: 'anthropic-version' },
    );
  }
}

/** The key the client presented, by the rules of its protocol; throws 401 when there is none. */
export function presentedKey(ctx: RequestContext, options: AuthOptions): string {
  switch (ctx.protocol) {
    case 'chat':
    case 'responses':
      return openAiKey(ctx);
    case 'gemini':
      return geminiKey(ctx);
    case 'messages':
      return anthropicKey(ctx, options);
  }
}
