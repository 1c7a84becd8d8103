// Loads the plugin chain: resolve each entry (built-in name, relative path or package), validate its
// options against the schema it declares (defaults applied, then frozen), and run its setup.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv, type ErrorObject } from 'ajv';
import type { Logger } from 'winston';
import type { PluginEntry } from '../config/types.ts';
import type { GatewayApi, PluginDefinition } from './plugin.ts';

/** Where built-in plugins live: `<repo>/plugins/<name>/index.ts`. */
export const BUILTIN_PLUGIN_DIR = fileURLToPath(new URL('../../plugins/', import.meta.url));

export class PluginLoadError extends Error {
  readonly plugin: string;
  constructor(plugin: string, message: string, cause?: unknown) {
    super(`plugin "${plugin}": ${message}`, cause === undefined ? undefined : { cause });
    this.name = 'PluginLoadError';
    this.plugin = plugin;
  }
}

export function isBuiltinPlugin(name: string): boolean {
  return /^[a-z][a-z0-9-]*$/.test(name) && existsSync(path.join(BUILTIN_PLUGIN_DIR, name, 'index.ts'));
}

/** Module specifier (file URL or package path) for a plugin entry. */
export function resolvePluginSpecifier(name: string, baseDir: string): string {
  if (isBuiltinPlugin(name)) return pathToFileURL(path.join(BUILTIN_PLUGIN_DIR, name, 'index.ts')).href;
  if (name.startsWith('.') || path.isAbsolute(name)) return pathToFileURL(path.resolve(baseDir, name)).href;
  try {
    return pathToFileURL(createRequire(path.join(baseDir, 'package.json')).resolve(name)).href;
  } catch (error) {
    // ESM-only packages export no `require` condition: resolve them the way `import` would.
    if ((error as { code?: string }).code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED') throw error;
    return import.meta.resolve(name);
  }
}

function isPluginDefinition(value: unknown): value is PluginDefinition<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate.name === 'string' && typeof candidate.setup === 'function';
}

export async function importPlugin(entry: PluginEntry, baseDir: string): Promise<PluginDefinition<unknown>> {
  let loaded: unknown;
  try {
    loaded = await import(resolvePluginSpecifier(entry.name, baseDir));
  } catch (error) {
    throw new PluginLoadError(entry.name, `failed to load: ${(error as Error).message}`, error);
  }
  const definition = (loaded as { default?: unknown }).default;
  if (!isPluginDefinition(definition)) {
    throw new PluginLoadError(entry.name, 'the default export is not a plugin (use definePlugin({ name, setup }))');
  }
  return definition;
}

const ajv = new Ajv({ allErrors: true, useDefaults: true, coerceTypes: false, strict: false });

function formatOptionError(prefix: string, error: ErrorObject): string {
  const at = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const where = at ? `${prefix}.${at}` : prefix;
  if (error.keyword === 'additionalProperties') {
    return `${where}: unknown option "${String(error.params.additionalProperty)}"`;
  }
  if (error.keyword === 'enum') {
    return `${where}: must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return `${where}: ${error.message ?? 'is invalid'}`;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Validated, defaulted, frozen options; throws with every problem, each naming its YAML path. */
export function validatePluginOptions(definition: PluginDefinition<unknown>, entry: PluginEntry, index: number): unknown {
  const prefix = `plugins[${index}].${entry.name}`;
  const options = structuredClone(entry.options ?? {});
  if (!definition.optionsSchema) {
    const given = options && typeof options === 'object' ? Object.keys(options) : [];
    if (given.length > 0) throw new PluginLoadError(entry.name, `${prefix}: this plugin takes no options`);
    return deepFreeze(options);
  }
  const validate = ajv.compile(definition.optionsSchema);
  if (!validate(options)) {
    const lines = (validate.errors ?? []).map((e) => formatOptionError(prefix, e));
    throw new PluginLoadError(entry.name, `invalid options:\n  ${[...new Set(lines)].join('\n  ')}`);
  }
  return deepFreeze(options);
}

export interface LoadedPlugin {
  entry: PluginEntry;
  definition: PluginDefinition<unknown>;
  options: unknown;
}

/** Imports and validates every plugin without running setup (used by `gateway validate` too). */
export async function loadPlugins(entries: readonly PluginEntry[], baseDir: string): Promise<LoadedPlugin[]> {
  const loaded: LoadedPlugin[] = [];
  for (const [index, entry] of entries.entries()) {
    const definition = await importPlugin(entry, baseDir);
    loaded.push({ entry, definition, options: validatePluginOptions(definition, entry, index) });
  }
  return loaded;
}

/** Runs each plugin's setup in chain order; a failure stops start-up naming the plugin. */
export async function setupPlugins(
  plugins: readonly LoadedPlugin[],
  logger: Logger,
  apiFor: (pluginName: string) => GatewayApi,
): Promise<void> {
  for (const plugin of plugins) {
    const name = plugin.definition.name;
    try {
      await plugin.definition.setup({ options: plugin.options, logger: logger.child({ plugin: name }), gateway: apiFor(name) });
    } catch (error) {
      throw new PluginLoadError(plugin.entry.name, `setup failed: ${(error as Error).message}`, error);
    }
  }
}
