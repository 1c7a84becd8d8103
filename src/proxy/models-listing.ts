// Model listings in each vendor's shape, showing only the models the caller's key may use.
import type { GatewayConfig, ModelSettings } from '../config/types.ts';
import type { KeyIdentity, RequestProtocol } from '../core/context.ts';
import { GatewayError } from '../errors/catalogue.ts';
import { listModels } from '../routing/resolve.ts';

/** A fixed, honest creation time: the gateway does not know when an upstream model was made. */
const CREATED_EPOCH = 1_700_000_000;

function openaiModel(m: ModelSettings): Record<string, unknown> {
  return { id: m.name, object: 'model', created: CREATED_EPOCH, owned_by: m.targets[0]?.provider ?? 'gateway' };
}

function anthropicModel(m: ModelSettings): Record<string, unknown> {
  return { type: 'model', id: m.name, display_name: m.name, created_at: new Date(CREATED_EPOCH * 1000).toISOString() };
}

function geminiModel(m: ModelSettings): Record<string, unknown> {
  return {
    name: `models/${m.name}`,
    baseModelId: m.name,
    version: '1',
    displayName: m.name,
    description: `Routed by the gateway to ${m.targets.map((t) => `${t.provider}/${t.model}`).join(', ')}`,
    supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
    ...(m.maxTokens ? { outputTokenLimit: m.maxTokens } : {}),
  };
}

export function listModelsBody(
  config: GatewayConfig,
  protocol: RequestProtocol,
  key: KeyIdentity | undefined,
  query: Readonly<Record<string, string>>,
): Record<string, unknown> {
  const all = listModels(config, key);
  if (protocol === 'gemini') return { models: all.filter((m) => m.type === 'chat').map(geminiModel) };
  if (protocol === 'messages') {
    const chat = all.filter((m) => m.type === 'chat');
    const limit = Math.min(Math.max(Number(query.limit) || 20, 1), 1000);
    const afterIndex = query.after_id ? chat.findIndex((m) => m.name === query.after_id) + 1 : 0;
    const page = chat.slice(afterIndex, afterIndex + limit);
    return {
      data: page.map(anthropicModel),
      has_more: afterIndex + limit < chat.length,
      first_id: page[0]?.name ?? null,
      last_id: page.at(-1)?.name ?? null,
    };
  }
  return { object: 'list', data: all.map(openaiModel) };
}

export function getModelBody(
  config: GatewayConfig,
  protocol: RequestProtocol,
  key: KeyIdentity | undefined,
  id: string,
): Record<string, unknown> {
  const name = id.replace(/^models\//, '');
  const model = listModels(config, key).find((m) => m.name === name);
  if (!model || (protocol !== 'chat' && model.type !== 'chat')) {
    throw new GatewayError('model_not_found', `The model '${name}' does not exist or you do not have access to it.`);
  }
  if (protocol === 'gemini') return geminiModel(model);
  if (protocol === 'messages') return anthropicModel(model);
  return openaiModel(model);
}
