// Public API for plugin authors and embedders. Plugins import only this module.
// Embedding: `const { config } = await loadConfig({ file }); const gw = await createGateway(config); await gw.listen();`
export { createGateway } from './gateway.ts';
export type { Gateway, GatewayOptions } from './gateway.ts';
export { loadConfig, loadConfigFile, parseConfig, formatProblem } from './config/index.ts';
export type { ConfigProblem, LoadResult, ParseResult } from './config/index.ts';
export { definePlugin, HOOK_NAMES } from './core/plugin.ts';
export type {
  GatewayApi,
  HookName,
  Hooks,
  HttpMethod,
  PluginDefinition,
  PluginRoute,
  PluginSetupContext,
  Translator,
  TranslatorTools,
} from './core/plugin.ts';
export type {
  KeyIdentity,
  Operation,
  RequestContext,
  RequestProtocol,
  ResolvedRoute,
  ResponseInfo,
  Timings,
  TokenUsage,
  UpstreamRequest,
} from './core/context.ts';
export type { ProviderEndpoint, ProviderOperation } from './core/provider-api.ts';
export type {
  GatewayConfig,
  KeyRateLimit,
  KeySettings,
  ModelSettings,
  ProviderSettings,
  ProviderType,
  ServerConfig,
  StorageSettings,
  TargetSettings,
} from './config/types.ts';
export { REDACTED, SECRET_HEADERS, redactHeaders, redactUrl } from './core/redact.ts';
export { GatewayError, isGatewayError } from './errors/catalogue.ts';
export type { ErrorCode, ErrorKind } from './errors/catalogue.ts';
export { createTranslator, DEFAULT_TRANSLATE_OPTIONS } from './proxy/translate/index.ts';
export type { ImageFetchOptions, TranslateOptions, TranslateOptionsInput } from './proxy/translate/index.ts';
// Storage for plugins that keep state (image-batches): the contract in storage/types.ts, one store per `storage.kind`.
export { openStorage, countItems, isTerminalBatchStatus } from './storage/index.ts';
export type {
  AdmissionLimits,
  Batch,
  BatchItem,
  BatchPage,
  BatchRepository,
  BatchStatus,
  BlobContent,
  BlobRef,
  BlobStore,
  ClaimedItem,
  CreateBatchOptions,
  CreateBatchResult,
  ExpiredBlob,
  ItemCounts,
  ItemError,
  ItemPatch,
  ItemRef,
  ItemsChange,
  ItemStatus,
  NewBatch,
  NewBatchItem,
  Storage,
  StorageConfig,
  StorageKind,
  StorageOptions,
} from './storage/index.ts';
