// One small descriptor per provider type: base-URL rules, credential headers, endpoint paths.
// The generic request path never branches on a provider id; it asks the descriptor.
import type { ProviderSettings, ProviderType } from '../config/types.ts';
import type { RequestProtocol } from '../core/context.ts';
import type { ProviderEndpoint, ProviderOperation } from '../core/provider-api.ts';

export const ANTHROPIC_DEFAULT_VERSION = '2023-06-01';

type PathTable = Partial<Record<ProviderOperation, (model: string) => string>>;

const OPENAI_PATHS: PathTable = {
  chat: () => '/chat/completions',
  responses: () => '/responses',
  images_generate: () => '/images/generations',
};

const ANTHROPIC_PATHS: PathTable = {
  messages: () => '/v1/messages',
  messages_count_tokens: () => '/v1/messages/count_tokens',
};

const geminiModelPath = (model: string): string => `/v1beta/models/${encodeURIComponent(model)}`;
const GEMINI_PATHS: PathTable = {
  gemini_generate: (m) => `${geminiModelPath(m)}:generateContent`,
  gemini_stream: (m) => `${geminiModelPath(m)}:streamGenerateContent`,
  gemini_count_tokens: (m) => `${geminiModelPath(m)}:countTokens`,
  images_generate: (m) => `${geminiModelPath(m)}:generateContent`,
};

/** The mock serves every protocol from one root, with the real vendors' paths. */
const MOCK_PATHS: PathTable = {
  chat: () => '/v1/chat/completions',
  responses: () => '/v1/responses',
  images_generate: () => '/v1/images/generations',
  ...ANTHROPIC_PATHS,
  gemini_generate: GEMINI_PATHS.gemini_generate,
  gemini_stream: GEMINI_PATHS.gemini_stream,
  gemini_count_tokens: GEMINI_PATHS.gemini_count_tokens,
};

interface TypeDescriptor {
  paths: PathTable;
  protocols: (settings: ProviderSettings) => RequestProtocol[];
  authHeaders: (apiKey: string | undefined) => Record<string, string>;
}

const DESCRIPTORS: Record<ProviderType, TypeDescriptor> = {
  openai: {
    paths: OPENAI_PATHS,
    protocols: (s) => (s.responses ? ['chat', 'responses'] : ['chat']),
    authHeaders: (key): Record<string, string> => (key ? { authorization: `Bearer ${key}` } : {}),
  },
  anthropic: {
    paths: ANTHROPIC_PATHS,
    protocols: () => ['messages'],
    authHeaders: (key) => ({ ...(key ? { 'x-api-key': key } : {}), 'anthropic-version': ANTHROPIC_DEFAULT_VERSION }),
  },
  gemini: {
    paths: GEMINI_PATHS,
    protocols: () => ['gemini'],
    authHeaders: (key): Record<string, string> => (key ? { 'x-goog-api-key': key } : {}),
  },
  mock: {
    paths: MOCK_PATHS,
    protocols: () => ['chat', 'responses', 'messages', 'gemini'],
    authHeaders: () => ({}),
  },
};

export interface DescribeOptions {
  /** Root URL of the in-process mock upstream (mock providers only). */
  mockBaseUrl?: string;
  defaultTimeoutMs: number;
}

export function describeProvider(settings: ProviderSettings, options: DescribeOptions): ProviderEndpoint {
  const descriptor = DESCRIPTORS[settings.type];
  const base = (settings.type === 'mock' ? options.mockBaseUrl : settings.baseUrl) ?? '';
  const root = base.replace(/\/+$/, '');
  const extraHeaders = { ...(settings.headers ?? {}) };
  return {
    id: settings.id,
    type: settings.type,
    protocols: descriptor.protocols(settings),
    available: settings.missingEnv.length === 0 && root !== '',
    missingEnv: settings.missingEnv,
    timeoutMs: settings.timeoutMs ?? options.defaultTimeoutMs,
    url(operation, model = '', opts = {}) {
      const path = descriptor.paths[operation];
      if (!path) throw new Error(`provider type ${settings.type} has no ${operation} endpoint`);
      return `${root}${path(model)}${opts.streamSse ? '?alt=sse' : ''}`;
    },
    authHeaders: () => ({ ...extraHeaders, ...descriptor.authHeaders(settings.apiKey) }),
  };
}

/** Which provider operation serves a client protocol's generation call natively. */
export function nativeOperation(protocol: RequestProtocol, stream: boolean): ProviderOperation {
  switch (protocol) {
    case 'chat':
      return 'chat';
    case 'responses':
      return 'responses';
    case 'messages':
      return 'messages';
    case 'gemini':
      return stream ? 'gemini_stream' : 'gemini_generate';
  }
}
