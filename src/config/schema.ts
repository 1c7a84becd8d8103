// JSON Schema (ajv, draft-07) of the raw YAML after ${ENV} interpolation. Unknown keys are errors everywhere.
// Three annotation keywords feed readable messages (see validate.ts):
//   errorText  replaces ajv's message for this schema's own errors (and `required` errors naming it);
//   errorHint  is appended in parentheses to `required` and format errors;
//   label      names a closed branch in "unknown key" messages (`for provider type "anthropic"`).
import type { SchemaObject } from 'ajv';
import type { KeyRateLimit, ProviderType, ServerConfig, TargetSettings } from './types.ts';

export const PROVIDER_TYPES = ['openai', 'anthropic', 'gemini', 'mock'] as const satisfies readonly ProviderType[];
export const STORAGE_KINDS = ['sqlite', 'postgres', 'mongodb'] as const;
export const LOG_LEVELS = ['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly'] as const satisfies readonly ServerConfig['logLevel'][];
export const MODEL_TYPES = ['chat', 'image'] as const;
/** Provider types that can generate images (image models must target one of these). */
export const IMAGE_PROVIDER_TYPES: readonly ProviderType[] = ['openai', 'gemini', 'mock'];

/** The SDK convention for each provider type's baseUrl, shown when it is missing or wrong. */
export const BASE_URL_CONVENTION: Readonly<Record<ProviderType, string>> = {
  openai: 'OpenAI-type baseUrl includes /v1, e.g. https://api.openai.com/v1',
  anthropic: 'Anthropic-type baseUrl is the root, e.g. https://api.anthropic.com',
  gemini: 'Gemini-type baseUrl is the root, e.g. https://generativelanguage.googleapis.com',
  mock: 'mock providers run in-process and take no baseUrl',
};

export interface RawServer {
  port?: number;
  host?: string;
  publicUrl?: string;
  bodyLimit?: string | number;
  shutdownTimeoutMs?: number;
  upstreamTimeoutMs?: number;
  logLevel?: ServerConfig['logLevel'];
}

export type RawStorage =
  | { kind?: 'sqlite'; path?: string }
  | { kind: 'postgres'; url: string; schema?: string }
  | { kind: 'mongodb'; uri: string; database?: string };

export interface RawKey {
  name: string;
  key?: string;
  keyHash?: string;
  models?: string[];
  rateLimit?: KeyRateLimit;
}

export interface RawProvider {
  type: ProviderType;
  baseUrl?: string;
  apiKey?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  responses?: boolean;
  mock?: { latencyMs?: number; chunkDelayMs?: number };
}

export interface RawModel {
  name: string;
  type?: (typeof MODEL_TYPES)[number];
  sizes?: string[];
  maxTokens?: number;
  targets: TargetSettings[];
}

export type RawPluginItem = string | Record<string, Record<string, unknown> | null>;

/** The document as the schema accepts it (before defaults). */
export interface RawConfig {
  server?: RawServer;
  storage?: RawStorage;
  keys: RawKey[];
  providers: Record<string, RawProvider>;
  models: RawModel[];
  plugins?: RawPluginItem[];
}

const nonEmptyString = { type: 'string', minLength: 1 };
const positiveInt = { type: 'integer', minimum: 1 };
const nonNegativeInt = { type: 'integer', minimum: 0 };

function httpUrl(hint?: string): SchemaObject {
  return { type: 'string', format: 'http-url', ...(hint ? { errorHint: hint } : {}) };
}

function closed(properties: Record<string, SchemaObject>, required: string[] = [], label?: string): SchemaObject {
  return { type: 'object', properties, required, additionalProperties: false, ...(label ? { label } : {}) };
}

/** Every branch's keys; a key whose schema differs between branches loses its branch-specific hint. */
function mergedProperties(branches: readonly SchemaObject[]): Record<string, SchemaObject> {
  const merged: Record<string, SchemaObject> = {};
  for (const branch of branches) {
    for (const [key, schema] of Object.entries<SchemaObject>(branch.properties)) {
      const seen = merged[key];
      if (seen === undefined) merged[key] = schema;
      else if (seen !== schema) merged[key] = withoutHints(seen);
    }
  }
  return merged;
}

function withoutHints(schema: SchemaObject): SchemaObject {
  const { errorHint: _hint, errorText: _text, ...rest } = schema;
  return rest;
}

/** `if <tag> is <value> then <closed branch>` per value, plus a closed union of all keys when the tag is invalid.
 * With `defaultValue`, a missing tag selects that branch. */
function tagged(tag: string, branches: Record<string, SchemaObject>, defaultValue?: string): SchemaObject[] {
  const requiredFor = (value: string): string[] => (value === defaultValue ? [] : [tag]);
  return [
    ...Object.entries(branches).map(([value, then]) => ({
      if: { properties: { [tag]: { const: value } }, required: requiredFor(value) },
      then,
    })),
    {
      if: { properties: { [tag]: { enum: Object.keys(branches) } }, required: defaultValue === undefined ? [tag] : [] },
      then: true,
      else: closed(mergedProperties(Object.values(branches))),
    },
  ];
}

const server = closed({
  port: { type: 'integer', minimum: 0, maximum: 65535 },
  host: nonEmptyString,
  publicUrl: httpUrl('the address clients reach the gateway at, e.g. https://gateway.example.com'),
  bodyLimit: {
    type: ['string', 'integer'],
    pattern: '^\\d+(\\.\\d+)?\\s*[kKmMgG]?[bB]$',
    minimum: 1,
    errorText: 'must be a size like 20mb, 512kb or a number of bytes',
  },
  shutdownTimeoutMs: nonNegativeInt,
  upstreamTimeoutMs: positiveInt,
  logLevel: { enum: LOG_LEVELS },
});

const storageKind = { enum: STORAGE_KINDS };
const storage: SchemaObject = {
  type: 'object',
  properties: { kind: storageKind },
  allOf: tagged(
    'kind',
    {
      sqlite: closed({ kind: storageKind, path: nonEmptyString }, [], 'storage kind "sqlite"'),
      postgres: closed({ kind: storageKind, url: nonEmptyString, schema: nonEmptyString }, ['url'], 'storage kind "postgres"'),
      mongodb: closed({ kind: storageKind, uri: nonEmptyString, database: nonEmptyString }, ['uri'], 'storage kind "mongodb"'),
    },
    'sqlite',
  ),
};

const rateLimit = closed({ requestsPerMinute: positiveInt, concurrency: positiveInt });
const key = closed(
  {
    name: nonEmptyString,
    key: { type: 'string', minLength: 1 },
    keyHash: {
      type: 'string',
      pattern: '^sha256:[0-9a-fA-F]{64}$',
      errorText: 'must be "sha256:" followed by 64 hex digits (printf %s "$KEY" | sha256sum)',
    },
    models: { type: 'array', minItems: 1, items: nonEmptyString },
    rateLimit,
  },
  ['name'],
);

const providerType = { enum: PROVIDER_TYPES };
const common = {
  type: providerType,
  apiKey: { type: 'string' },
  headers: {
    type: 'object',
    propertyNames: { pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$", errorText: 'is not a valid HTTP header name' },
    additionalProperties: { type: 'string' },
  },
  timeoutMs: positiveInt,
};
const remote = (type: ProviderType, extra: Record<string, SchemaObject> = {}): SchemaObject =>
  closed({ ...common, baseUrl: httpUrl(BASE_URL_CONVENTION[type]), ...extra }, ['baseUrl'], `provider type "${type}"`);
const provider: SchemaObject = {
  type: 'object',
  properties: { type: providerType },
  required: ['type'],
  allOf: tagged('type', {
    openai: remote('openai', { responses: { type: 'boolean' } }),
    anthropic: remote('anthropic'),
    gemini: remote('gemini'),
    mock: closed(
      { type: providerType, mock: closed({ latencyMs: nonNegativeInt, chunkDelayMs: nonNegativeInt }) },
      [],
      'provider type "mock"',
    ),
  }),
};

const model = closed(
  {
    name: nonEmptyString,
    type: { enum: MODEL_TYPES },
    sizes: {
      type: 'array',
      minItems: 1,
      items: { type: 'string', pattern: '^\\d+x\\d+$', errorText: 'must be <width>x<height>, e.g. 1024x1024' },
    },
    maxTokens: positiveInt,
    targets: {
      type: 'array',
      minItems: 1,
      items: closed({ provider: nonEmptyString, model: nonEmptyString }, ['provider', 'model']),
    },
  },
  ['name', 'targets'],
);

const pluginItem = {
  type: ['string', 'object'],
  minLength: 1,
  minProperties: 1,
  maxProperties: 1,
  additionalProperties: { type: ['object', 'null'], errorText: 'plugin options must be a mapping' },
  errorText: 'must be a plugin name or a single-key mapping like { rate-limit: { requestsPerMinute: 600 } }',
};

export const CONFIG_SCHEMA: SchemaObject = closed(
  {
    server,
    storage,
    keys: {
      type: 'array',
      minItems: 1,
      items: key,
      errorText: 'at least one key is required: the gateway never runs open (e.g. - { name: ops, key: "${GATEWAY_API_KEY}" })',
    },
    providers: {
      type: 'object',
      minProperties: 1,
      propertyNames: { pattern: '^[a-zA-Z0-9_-]+$', errorText: 'provider ids use only letters, digits, "_" and "-"' },
      additionalProperties: provider,
      errorText: 'at least one provider is required (type: mock needs no network and no key)',
    },
    models: { type: 'array', minItems: 1, items: model, errorText: 'at least one model is required' },
    plugins: { type: 'array', items: pluginItem },
  },
  ['keys', 'providers', 'models'],
);
