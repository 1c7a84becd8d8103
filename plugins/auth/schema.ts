// Options of the auth plugin (validated by the registry at start-up, defaults applied).

export interface AuthOptions {
  /**
   * What to do with `Authorization: Bearer` on the Anthropic Messages protocol. The gateway's rule is
   * 'reject' (401 telling the caller to send `x-api-key`); 'accept' treats the Bearer token like
   * `x-api-key`, for clients that cannot change (the 1.x @anthropic-ai/sdk sends Bearer by default).
   */
  anthropicBearer: 'reject' | 'accept';
}

export const authOptionsSchema = {
  type: 'object',
  properties: {
    anthropicBearer: {
      enum: ['reject', 'accept'],
      default: 'reject',
      description: 'Bearer token on /v1/messages: reject with 401 (default) or accept it as x-api-key.',
    },
  },
  additionalProperties: false,
} as const;
