// Options of the protocol-translate plugin (validated by the registry at start-up, defaults applied).
import { DEFAULT_TRANSLATE_OPTIONS } from '../../src/index.ts';

const image = DEFAULT_TRANSLATE_OPTIONS.imageFetch;

export const translateOptionsSchema = {
  type: 'object',
  properties: {
    imageFetch: {
      type: 'object',
      description: 'Downloading client image URLs for providers that only take bytes (Gemini).',
      properties: {
        maxBytes: { type: 'integer', minimum: 1, default: image.maxBytes, description: 'Largest image downloaded, in bytes.' },
        timeoutMs: { type: 'integer', minimum: 1, default: image.timeoutMs, description: 'Time limit per image download.' },
        allowPrivateNetworks: {
          type: 'boolean',
          default: image.allowPrivateNetworks,
          description: 'Also fetch URLs resolving to loopback/private/link-local addresses (tests and trusted networks only).',
        },
        maxImages: { type: 'integer', minimum: 0, default: image.maxImages, description: 'Most image URLs downloaded per request.' },
      },
      additionalProperties: false,
      default: {},
    },
    thoughtSignatureCacheSize: {
      type: 'integer',
      minimum: 1,
      default: DEFAULT_TRANSLATE_OPTIONS.thoughtSignatureCacheSize,
      description: 'Tool-call ids whose Gemini thought signature is remembered for the next turn (LRU).',
    },
  },
  additionalProperties: false,
} as const;
