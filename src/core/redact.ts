// Secret redaction for what core and plugins write to logs and error messages: credential headers,
// `?key=`-style query parameters and URL passwords. URL and marker come from config/redact.ts (which
// also redacts config dumps), so every redacted value in the gateway looks the same.
import { REDACTED, redactUrl } from '../config/redact.ts';

export { REDACTED, redactUrl };

/** Header names (lower-case) whose values are credentials. */
export const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'x-goog-api-key',
  'api-key',
  'cookie',
  'set-cookie',
]);

type HeaderValue = string | string[] | number | undefined;

/** A copy of `headers` with every credential header's value replaced; names compared case-insensitively. */
export function redactHeaders<V extends HeaderValue>(headers: Readonly<Record<string, V>>): Record<string, V | string> {
  const out: Record<string, V | string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) && value !== undefined ? REDACTED : value;
  }
  return out;
}
