// One generation attempt for one item: the model's targets in order, each call inside its provider's
// concurrency slot. A transient failure moves on to the next target; a content-policy or other final
// refusal stops at once. The caller decides about retrying the item later.
import type { GatewayApi, ProviderType, ResolvedRoute } from '../../src/index.ts';
import { ProviderSlots } from './limits.ts';
import { generateGeminiImage } from './upstream/gemini-images.ts';
import { generateOpenAIImage } from './upstream/openai-images.ts';
import { Interrupted, UpstreamFailure } from './upstream/types.ts';
import type { DownloadLimits, GeneratedImage, ImageAdapter } from './upstream/types.ts';

export type Attempt = { ok: true; image: GeneratedImage; provider: string } | { ok: false; failure: UpstreamFailure };

export interface Generator {
  generate(model: string, item: { prompt: string; size: string }, signal: AbortSignal): Promise<Attempt>;
}

const ADAPTERS: Partial<Record<ProviderType, ImageAdapter>> = {
  openai: generateOpenAIImage,
  mock: generateOpenAIImage,
  gemini: generateGeminiImage,
};

function routeOf(gateway: GatewayApi, model: string): ResolvedRoute | UpstreamFailure {
  try {
    return gateway.resolveModel(model, undefined, { type: 'image' });
  } catch {
    return new UpstreamFailure('permanent', 'upstream_error', `model "${model}" is no longer configured as an image model`);
  }
}

export function createGenerator(gateway: GatewayApi, perProvider: number, download: DownloadLimits): Generator {
  const slots = new ProviderSlots(perProvider);
  return {
    async generate(model, item, signal) {
      const route = routeOf(gateway, model);
      if (route instanceof UpstreamFailure) return { ok: false, failure: route };
      let last: UpstreamFailure | undefined;
      for (const target of route.model.targets) {
        const endpoint = gateway.provider(target.provider);
        const adapter = ADAPTERS[endpoint.type];
        if (!endpoint.available || !adapter) {
          const why = adapter ? `is not configured (${endpoint.missingEnv.join(', ') || 'no base URL'})` : `(type ${endpoint.type}) cannot generate images`;
          last ??= new UpstreamFailure('permanent', 'upstream_error', `provider "${endpoint.id}" ${why}`);
          continue;
        }
        try {
          const call = { endpoint, model: target.model, prompt: item.prompt, size: item.size, download, signal };
          const image = await slots.run(endpoint.id, signal, () => adapter(call));
          return { ok: true, image, provider: endpoint.id };
        } catch (error) {
          if (signal.aborted || error instanceof Interrupted) throw new Interrupted();
          if (!(error instanceof UpstreamFailure)) throw error;
          if (error.kind !== 'transient') return { ok: false, failure: error };
          last = error;
        }
      }
      return { ok: false, failure: last ?? new UpstreamFailure('permanent', 'upstream_error', `model "${model}" has no targets`) };
    },
  };
}
