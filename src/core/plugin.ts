// The plugin contract: a module whose default export is `definePlugin({ name, optionsSchema, setup })`.
// `definePlugin` is an identity helper for type inference only; the registry validates options against
// `optionsSchema` at start-up, so a bad YAML fails before the first request.
import type { Request, Response } from 'express';
import type { Logger } from 'winston';
import type { GatewayConfig } from '../config/types.ts';
import type { KeyIdentity, RequestContext, ResolvedRoute } from './context.ts';
import type { ProviderEndpoint } from './provider-api.ts';

/** The closed set of hook names, in the order they run for a request (docs/plugins.md draws it). */
export const HOOK_NAMES = ['onRequest', 'beforeUpstream', 'onResponse', 'onError'] as const;
export type HookName = (typeof HOOK_NAMES)[number];

export interface Hooks {
  /** After routing the path and parsing the body, before model resolution. Throw a GatewayError to reject. */
  onRequest: (ctx: RequestContext) => void | Promise<void>;
  /** After the route/target is resolved; may edit `ctx.upstream` (url, headers, body) before it is sent. */
  beforeUpstream: (ctx: RequestContext) => void | Promise<void>;
  /** Once the response has been fully sent (status, headers, usage known). Observational. */
  onResponse: (ctx: RequestContext) => void | Promise<void>;
  /** When the request failed; the error is rendered in the client's shape after all onError hooks ran. */
  onError: (ctx: RequestContext, error: Error) => void | Promise<void>;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A route a plugin adds (e.g. the image-batch API). The core runs `onRequest` hooks (auth, rate limit)
 * before the handler and renders thrown GatewayErrors in the OpenAI error shape. */
export interface PluginRoute {
  method: HttpMethod;
  /** Express path pattern, e.g. `/v1/images/batches/:id`. */
  path: string;
  /** Parse a JSON body for this route (default true for POST/PUT/PATCH). */
  jsonBody?: boolean;
  handler: (req: Request, res: Response, ctx: RequestContext) => void | Promise<void>;
}

/** What the core hands a translator for one request. */
export interface TranslatorTools {
  /** The resolved target's provider. */
  provider: ProviderEndpoint;
  /** Runs the `beforeUpstream` hooks; call it after setting `ctx.upstream`, before sending. */
  beforeUpstream(ctx: RequestContext): Promise<void>;
}

/** Handles requests whose client protocol differs from the upstream's (installed by protocol-translate). */
export interface Translator {
  handle(ctx: RequestContext, req: Request, res: Response, tools: TranslatorTools): Promise<void>;
}

export interface GatewayApi {
  /** The whole frozen configuration (read-only). */
  readonly config: GatewayConfig;
  addHook<N extends HookName>(name: N, hook: Hooks[N]): void;
  addRoute(route: PluginRoute): void;
  /** Install the cross-protocol handler; without one, cross-protocol requests answer 501. */
  setTranslator(translator: Translator): void;
  /** Called on graceful shutdown, in reverse registration order. */
  onClose(fn: () => void | Promise<void>): void;
  /** Model name → first matching route/target the key may use; throws GatewayError 404/503. */
  resolveModel(model: string, key: KeyIdentity | undefined, opts?: { type?: 'chat' | 'image' }): ResolvedRoute;
  /** How to call a provider directly (base URL, auth headers, endpoint paths). */
  provider(providerId: string): ProviderEndpoint;
  /** Absolute base URL clients reach the gateway at (`server.publicUrl`; with port 0, the bound port). */
  publicUrl(): string;
}

export interface PluginSetupContext<O> {
  /** Options from the YAML, validated against `optionsSchema`, with schema defaults applied, frozen. */
  readonly options: O;
  /** Child logger tagged with the plugin name. */
  readonly logger: Logger;
  readonly gateway: GatewayApi;
}

export interface PluginDefinition<O = Record<string, never>> {
  /** Unique plugin name; also the key of its per-request state. */
  name: string;
  /** JSON Schema (draft-07, ajv) of the plugin's options. Absent: the plugin takes no options. */
  optionsSchema?: Record<string, unknown>;
  setup(ctx: PluginSetupContext<O>): void | Promise<void>;
}

/** Identity helper: gives plugin authors type inference, no runtime behaviour. */
export function definePlugin<O = Record<string, never>>(definition: PluginDefinition<O>): PluginDefinition<O> {
  return definition;
}
