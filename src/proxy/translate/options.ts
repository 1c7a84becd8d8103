// Options of the translated path (the protocol-translate plugin's YAML slice), with their defaults.

export interface ImageFetchOptions {
  /** Largest remote image the gateway downloads to inline for upstreams that need bytes (Gemini). */
  maxBytes: number;
  /** Whole-download time limit per image, connection included. */
  timeoutMs: number;
  /** Allow URLs that resolve to loopback/private/link-local/ULA addresses (tests and trusted networks only). */
  allowPrivateNetworks: boolean;
  /** Most remote images one request may ask the gateway to download. */
  maxImages: number;
}

export interface TranslateOptions {
  imageFetch: ImageFetchOptions;
  /** Entries kept in the tool-call id → Gemini thoughtSignature cache (least recently used go first). */
  thoughtSignatureCacheSize: number;
}

export interface TranslateOptionsInput {
  imageFetch?: Partial<ImageFetchOptions>;
  thoughtSignatureCacheSize?: number;
}

export const DEFAULT_TRANSLATE_OPTIONS: Readonly<TranslateOptions> = Object.freeze({
  imageFetch: Object.freeze({ maxBytes: 5 * 1024 * 1024, timeoutMs: 10_000, allowPrivateNetworks: false, maxImages: 16 }),
  thoughtSignatureCacheSize: 10_000,
});

export function resolveTranslateOptions(input: TranslateOptionsInput = {}): TranslateOptions {
  return {
    imageFetch: { ...DEFAULT_TRANSLATE_OPTIONS.imageFetch, ...input.imageFetch },
    thoughtSignatureCacheSize: input.thoughtSignatureCacheSize ?? DEFAULT_TRANSLATE_OPTIONS.thoughtSignatureCacheSize,
  };
}
