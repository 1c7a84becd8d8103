// Which client headers may travel upstream. Hop-by-hop headers are connection-scoped (RFC 9110 §7.6.1)
// and client credentials belong to the gateway, never to the provider.

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Client credentials and headers the gateway recomputes for the upstream hop. */
const NEVER_FORWARDED = new Set([
  'authorization',
  'x-api-key',
  'x-goog-api-key',
  'api-key',
  'host',
  'content-length',
  'accept-encoding',
  'cookie',
  'x-request-id',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'forwarded',
]);

/** Shared default: no `Connection:` tokens (not a new Set per call). */
const NO_TOKENS: ReadonlySet<string> = new Set();

export function isHopByHop(name: string, connectionTokens: ReadonlySet<string> = NO_TOKENS): boolean {
  const lower = name.toLowerCase();
  return HOP_BY_HOP.has(lower) || connectionTokens.has(lower);
}

/** Headers named in `Connection:` are hop-by-hop too. */
export function connectionTokens(value: string | string[] | undefined): Set<string> {
  const joined = Array.isArray(value) ? value.join(',') : (value ?? '');
  return new Set(joined.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean));
}

/** Client headers safe to pass to a same-type upstream (anthropic-beta, openai-beta, user-agent …). */
export function forwardableClientHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const tokens = connectionTokens(headers.connection);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || NEVER_FORWARDED.has(lower) || isHopByHop(lower, tokens)) continue;
    out[lower] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Response headers from upstream that must not be copied to the client as-is. */
export function isStrippedResponseHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return HOP_BY_HOP.has(lower) || lower === 'content-length' || lower === 'content-encoding' || lower === 'set-cookie';
}
