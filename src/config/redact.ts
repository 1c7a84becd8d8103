// A copy of the configuration that is safe to print: client keys, provider apiKeys, credential headers,
// secret-looking plugin options and passwords inside URLs become `***`.
import { deepFreeze } from './freeze.ts';
import type { GatewayConfig, KeySettings, ProviderSettings, StorageSettings } from './types.ts';

export const REDACTED = '***';

/** Header names that carry credentials (`authorization`, `x-api-key`, `x-goog-api-key`, `cookie`, `*-token`…). */
const SECRET_HEADER = /auth|key|token|secret|password|cookie|credential|session/i;
/** Option names in plugin settings whose string values are secrets. */
const SECRET_OPTION = /^(key|api[-_]?key)$|token|secret|password|passwd|credential|authorization/i;
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^:/?#@\s]*:)[^@/?#\s]*@/gi;
const SECRET_QUERY = /([?&](?:key|api[-_]?key|token|access_token|secret|sig|signature)=)[^&#]*/gi;

/** `postgres://u:pw@h/db?key=x` → `postgres://u:***@h/db?key=***`; other strings unchanged. */
export function redactUrl(text: string): string {
  return text.replace(URL_PASSWORD, `$1${REDACTED}@`).replace(SECRET_QUERY, `$1${REDACTED}`);
}

/** Deep copy of arbitrary option values with secret-named strings and URL credentials redacted. */
export function redactTree(value: unknown, name = ''): unknown {
  if (typeof value === 'string') return SECRET_OPTION.test(name) ? REDACTED : redactUrl(value);
  if (Array.isArray(value)) return value.map((item: unknown) => redactTree(item, name));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, redactTree(child, key)]));
  }
  return value;
}

function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, SECRET_HEADER.test(name) ? REDACTED : value]),
  );
}

function redactProvider(provider: ProviderSettings): ProviderSettings {
  return {
    ...provider,
    ...(provider.baseUrl !== undefined ? { baseUrl: redactUrl(provider.baseUrl) } : {}),
    ...(provider.apiKey !== undefined ? { apiKey: REDACTED } : {}),
    ...(provider.headers ? { headers: redactHeaders(provider.headers) } : {}),
  };
}

function redactStorage(storage: StorageSettings): StorageSettings {
  if (storage.kind === 'postgres') return { ...storage, url: redactUrl(storage.url) };
  if (storage.kind === 'mongodb') return { ...storage, uri: redactUrl(storage.uri) };
  return { ...storage };
}

function redactKey(key: KeySettings): KeySettings {
  return { ...key, ...(key.key !== undefined ? { key: REDACTED } : {}) };
}

/** A frozen copy that is safe to log or print; the original is untouched. */
export function redactConfig(config: GatewayConfig): GatewayConfig {
  return deepFreeze({
    ...config,
    server: { ...config.server, publicUrl: redactUrl(config.server.publicUrl) },
    storage: redactStorage(config.storage),
    keys: config.keys.map(redactKey),
    providers: Object.fromEntries(Object.entries(config.providers).map(([id, p]) => [id, redactProvider(p)])),
    models: config.models.map((model) => ({ ...model })),
    plugins: config.plugins.map((entry) => ({ name: entry.name, options: redactTree(entry.options) })),
  });
}
