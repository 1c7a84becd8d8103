// The translated request path (installed by the protocol-translate plugin): requests whose client protocol
// the target provider does not speak. One translator per gateway; per-request state lives in the
// request's own decoder/encoder, the only shared state is the bounded thought-signature cache.
import type { Logger } from 'winston';
import type { Translator } from '../../core/plugin.ts';
import { handleCountTokens } from './count-tokens.ts';
import { handleGenerate } from './generate.ts';
import { resolveTranslateOptions, type TranslateOptionsInput } from './options.ts';
import type { TranslateDeps } from './prepare.ts';
import { SignatureCache } from './signatures.ts';

export function createTranslator(options: TranslateOptionsInput, logger: Logger): Translator {
  const resolved = resolveTranslateOptions(options);
  const deps: TranslateDeps = { options: resolved, signatures: new SignatureCache(resolved.thoughtSignatureCacheSize), logger };
  return {
    async handle(ctx, _req, res, tools) {
      try {
        if (ctx.operation === 'count_tokens') await handleCountTokens(ctx, res, tools, deps);
        else await handleGenerate(ctx, res, tools, deps);
      } catch (error) {
        // The client left: there is no one to tell, and its abort caused whatever failed here.
        if (ctx.signal.aborted) return;
        throw error;
      }
    },
  };
}

export { DEFAULT_TRANSLATE_OPTIONS, type ImageFetchOptions, type TranslateOptions, type TranslateOptionsInput } from './options.ts';
export { estimateInputTokens } from './count-tokens.ts';
export { SKIP_SIGNATURE_SENTINEL } from './signatures.ts';
export { isBlockedAddress } from './address-guard.ts';
