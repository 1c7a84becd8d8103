// Built-in auth plugin: identifies the client key on every request (onRequest) and sets `ctx.key`.
//
// Rules per client protocol are in credentials.ts; key lookup (sha256 digests, constant time) in keys.ts.
// The presented key is only ever hashed: it is not stored on the context, logged, or put in an error
// message, and the core never forwards client credential headers upstream (it sets the provider's own).
// A key's `models` allow-list is enforced by the core's model resolution, not here.
import { GatewayError, definePlugin } from '../../src/index.ts';
import { checkAnthropicVersion, presentedKey } from './credentials.ts';
import { KeyStore } from './keys.ts';
import { authOptionsSchema } from './schema.ts';
import type { AuthOptions } from './schema.ts';

export default definePlugin<AuthOptions>({
  name: 'auth',
  optionsSchema: authOptionsSchema,
  setup({ options, gateway, logger }) {
    const keys = new KeyStore(gateway.config.keys);
    if (gateway.config.keys.length === 0) logger.warn('no keys configured: every request will answer 401');

    gateway.addHook('onRequest', (ctx) => {
      const key = presentedKey(ctx, options);
      const identity = keys.find(key);
      if (identity === undefined) throw new GatewayError('invalid_api_key', 'Incorrect API key provided.');
      if (ctx.protocol === 'messages') checkAnthropicVersion(ctx);
      ctx.key = identity;
    });
  },
});
