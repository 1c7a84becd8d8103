// The plugin chain: normalise YAML entries to `{ name, options }` and check that every name resolves
// (built-in, path relative to the config file, or installed package). Options are validated later by the
// plugin registry against the schema each plugin declares.
import { existsSync, statSync } from 'node:fs';
import { createRequire, findPackageJSON, isBuiltin } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { problemAt } from './problems.ts';
import type { ConfigProblem } from './problems.ts';
import type { RawPluginItem } from './schema.ts';
import { didYouMean } from './suggest.ts';
import type { PluginEntry } from './types.ts';

/** The built-in plugins, one directory each under `<repo>/plugins/`. */
export const BUILTIN_PLUGINS = ['logging', 'auth', 'rate-limit', 'protocol-translate', 'image-batches'] as const;

/** The chain used when the YAML has no `plugins` key: every built-in, in this order. */
export const DEFAULT_PLUGINS: readonly string[] = BUILTIN_PLUGINS;

export interface PluginResult {
  plugins: PluginEntry[];
  problems: ConfigProblem[];
  warnings: string[];
}

/** `logging` → `{ name: 'logging', options: {} }`; `{ rate-limit: {…} }` → `{ name: 'rate-limit', options: {…} }`. */
export function normalisePlugin(item: RawPluginItem): PluginEntry {
  if (typeof item === 'string') return { name: item, options: {} };
  const [name = '', options] = Object.entries(item)[0] ?? [];
  return { name, options: options ?? {} };
}

/** Items the schema rejects (reported there) are skipped, so the others can still be checked. */
function entryOf(item: unknown): PluginEntry | undefined {
  if (typeof item === 'string') return item === '' ? undefined : normalisePlugin(item);
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
  const pairs = Object.entries(item);
  const [pair] = pairs;
  if (pairs.length !== 1 || pair === undefined) return undefined;
  const [name, options] = pair;
  return { name, options: options ?? {} };
}

export function isBuiltinPlugin(name: string): boolean {
  return BUILTIN_PLUGINS.some((builtin) => builtin === name);
}

export function isPathPlugin(name: string): boolean {
  return name.startsWith('./') || name.startsWith('../') || path.isAbsolute(name);
}

function isFile(file: string): boolean {
  return existsSync(file) && statSync(file).isFile();
}

/** Resolvable the way `require` or `import` would from a module in baseDir (ESM-only packages included). */
export function isInstalledPackage(name: string, baseDir: string): boolean {
  if (isBuiltin(name)) return false;
  const parent = pathToFileURL(path.join(baseDir, 'package.json'));
  try {
    createRequire(parent).resolve(name);
    return true;
  } catch {
    try {
      return findPackageJSON(name, parent) !== undefined;
    } catch {
      return false;
    }
  }
}

function resolutionProblem(name: string, index: number, baseDir: string): ConfigProblem | undefined {
  if (isBuiltinPlugin(name)) return undefined;
  if (isPathPlugin(name)) {
    const file = path.resolve(baseDir, name);
    return isFile(file) ? undefined : problemAt(['plugins', index], `plugin file not found: ${file}`);
  }
  if (isInstalledPackage(name, baseDir)) return undefined;
  const suggestion = didYouMean(name, BUILTIN_PLUGINS);
  const message = suggestion
    ? `unknown plugin "${name}"${suggestion}`
    : `unknown plugin "${name}": not a built-in (${BUILTIN_PLUGINS.join(', ')}), not a relative path (start it with ./) and no installed package of that name`;
  return problemAt(['plugins', index], message);
}

/** `items` is the document's `plugins` value; undefined (key absent) means the default chain. */
export function resolvePlugins(items: unknown, baseDir: string): PluginResult {
  const result: PluginResult = { plugins: [], problems: [], warnings: [] };
  if (items === undefined) {
    result.plugins = DEFAULT_PLUGINS.map((name) => ({ name, options: {} }));
    return result;
  }
  if (!Array.isArray(items)) return result;
  const seen = new Map<string, number>();
  items.forEach((item: unknown, index) => {
    const entry = entryOf(item);
    if (entry === undefined) return;
    result.plugins.push(entry);
    const problem = resolutionProblem(entry.name, index, baseDir);
    if (problem) result.problems.push(problem);
    const first = seen.get(entry.name);
    if (first === undefined) seen.set(entry.name, index);
    else result.problems.push(problemAt(['plugins', index], `"${entry.name}" is already in the chain at plugins[${first}]`));
  });
  if (!seen.has('auth')) {
    result.warnings.push('plugins: "auth" is not in the chain, so requests are not checked against keys[]');
  }
  return result;
}
