// Configuration: cosmiconfig load → ${ENV} interpolation → ajv validation (all errors, YAML paths)
// → cross-checks → defaults → deep-freeze. See docs/configuration.md for the YAML reference.
export { loadConfig, loadConfigFile, CONFIG_FILE_NAMES } from './load.ts';
export type { LoadOptions, LoadResult } from './load.ts';
export { parseConfig } from './parse.ts';
export type { Env, ParseOptions, ParseResult } from './parse.ts';
export { ConfigError, formatProblem } from './problems.ts';
export type { ConfigProblem } from './problems.ts';
export { interpolate, expandString } from './interpolate.ts';
export { BUILTIN_PLUGINS, DEFAULT_PLUGINS, normalisePlugin } from './plugins.ts';
export { SERVER_DEFAULTS, STORAGE_DEFAULTS } from './defaults.ts';
export { CONFIG_SCHEMA, IMAGE_PROVIDER_TYPES, LOG_LEVELS, PROVIDER_TYPES, STORAGE_KINDS } from './schema.ts';
export { deepFreeze } from './freeze.ts';
export { REDACTED, redactConfig } from './redact.ts';
export type * from './types.ts';
