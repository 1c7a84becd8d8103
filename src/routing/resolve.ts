// Model name → first matching models[] entry the key may use → first target. Pure functions.
import picomatch from 'picomatch';
import type { GatewayConfig, ModelSettings } from '../config/types.ts';
import type { KeyIdentity, ResolvedRoute } from '../core/context.ts';
import { GatewayError } from '../errors/catalogue.ts';

const matchers = new Map<string, (name: string) => boolean>();

/** Glob match with a process-wide cache (patterns come from the frozen config, so the set is bounded). */
export function globMatch(pattern: string, name: string): boolean {
  let matcher = matchers.get(pattern);
  if (!matcher) {
    matcher = picomatch(pattern, { dot: true, nocase: false });
    matchers.set(pattern, matcher);
  }
  return matcher(name);
}

export function keyAllowsModel(key: KeyIdentity | undefined, model: string): boolean {
  if (!key) return true;
  return key.models.some((pattern) => globMatch(pattern, model));
}

export function findModel(config: GatewayConfig, model: string): ModelSettings | undefined {
  return config.models.find((entry) => entry.name === model || globMatch(entry.name, model));
}

function notFound(model: string): GatewayError {
  return new GatewayError('model_not_found', `The model '${model}' does not exist or you do not have access to it.`, {
    param: 'model',
  });
}

export interface ResolveOptions {
  type?: 'chat' | 'image';
  /** Start from this target index (fallback walks the list). */
  targetIndex?: number;
}

export function resolveRoute(
  config: GatewayConfig,
  model: string,
  key: KeyIdentity | undefined,
  options: ResolveOptions = {},
): ResolvedRoute {
  if (!keyAllowsModel(key, model)) throw notFound(model);
  const entry = findModel(config, model);
  if (!entry) throw notFound(model);
  const wanted = options.type ?? 'chat';
  if (entry.type !== wanted) {
    const hint = entry.type === 'image' ? 'it is an image model: use POST /v1/images/batches' : 'it is a chat model';
    throw new GatewayError('invalid_request', `The model '${model}' cannot be used here: ${hint}.`, { param: 'model' });
  }
  const targetIndex = options.targetIndex ?? 0;
  const target = entry.targets[targetIndex];
  const provider = target ? config.providers[target.provider] : undefined;
  if (!target || !provider) throw notFound(model);
  return { model: entry, target, provider, targetIndex };
}

/** Concrete (non-glob) model names a key may use, in config order. */
export function listModels(config: GatewayConfig, key: KeyIdentity | undefined): ModelSettings[] {
  return config.models.filter((m) => !picomatch.scan(m.name).isGlob && keyAllowsModel(key, m.name));
}
