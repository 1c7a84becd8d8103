// Example plugin: tags every request. It adds a header to the upstream call and a field to the access log.
// A complete plugin in one file; copy it to start your own, and see docs/plugins.md for the contract.
//
// Enable it in gateway.config.yaml (a relative path loads a plugin file; options are validated against
// `optionsSchema` at start-up, so a typo fails before the first request):
//
//   plugins:
//     - logging
//     - auth
//     - ./plugins/examples/request-tag.ts: { header: x-team, value: search }

// Plugins import the gateway only through its public entry point (lint enforces it).
import { definePlugin } from '../../src/index.ts';

/** The options after validation: the registry fills in the schema's defaults, so every field is set. */
interface RequestTagOptions {
  header: string;
  value: string;
  logField: string;
}

export default definePlugin<RequestTagOptions>({
  // The name identifies the plugin in errors and logs and keys its per-request state.
  name: 'request-tag',

  // JSON Schema (draft-07) of the options. Unknown options are errors; `default`s are applied.
  optionsSchema: {
    type: 'object',
    properties: {
      // An HTTP header name (RFC 9110 token characters).
      header: { type: 'string', pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$", default: 'x-gateway-tag' },
      // A header value: visible ASCII and spaces only, so no CR/LF can be smuggled into the request.
      value: { type: 'string', pattern: '^[\\x20-\\x7e]*$', default: 'gateway' },
      logField: { type: 'string', minLength: 1, default: 'tag' },
    },
    additionalProperties: false,
  },

  // setup runs once at start-up: read options, prepare anything expensive, register hooks.
  setup({ options, gateway }) {
    const header = options.header.toLowerCase();

    // onRequest runs for every request, before model resolution. Recording the log field here (rather
    // than in beforeUpstream) tags requests that never reach an upstream too, such as 404s (and 401s when the
    // plugin is listed before `auth`, since a rejecting hook stops the chain).
    gateway.addHook('onRequest', (ctx) => {
      ctx.logFields[options.logField] = options.value;
    });

    // beforeUpstream runs once the target is known, just before the upstream call; `ctx.upstream` is the
    // outgoing request (url, headers, body) and may be edited.
    gateway.addHook('beforeUpstream', (ctx) => {
      if (ctx.upstream) ctx.upstream.headers[header] = options.value;
    });
  },
});
