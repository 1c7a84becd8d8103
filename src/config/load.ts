// Finds and reads the YAML (or JSON) file with cosmiconfig, then hands the document to parseConfig.
// File-level failures (missing, unreadable, syntax errors) come back as problems like any other.
import path from 'node:path';
import { cosmiconfig, defaultLoaders } from 'cosmiconfig';
import type { CosmiconfigResult } from 'cosmiconfig';
import { parseConfig } from './parse.ts';
import type { Env, ParseResult } from './parse.ts';
import { ConfigError, problemAt } from './problems.ts';
import type { ConfigProblem } from './problems.ts';
import type { GatewayConfig } from './types.ts';

/** Searched, in this order, in the working directory when no file is named. */
export const CONFIG_FILE_NAMES = ['gateway.config.yaml', 'gateway.config.yml', 'gateway.config.json'] as const;
const EXTENSIONS = new Set(['.yaml', '.yml', '.json', '']);

export interface LoadOptions {
  /** Explicit file (relative to cwd). Default: `env.GATEWAY_CONFIG`, else a search of cwd. */
  file?: string;
  cwd?: string;
  /** Default: process.env. */
  env?: NodeJS.ProcessEnv | Env;
}

export interface LoadResult extends ParseResult {
  /** Absolute path of the file read (or named), undefined when the search found nothing. */
  filePath: string | undefined;
}

/** JSON is read by the YAML loader too (JSON is YAML), so both report syntax errors by line and column. */
const yamlLoader = defaultLoaders['.yaml'];

function explorer(): ReturnType<typeof cosmiconfig> {
  return cosmiconfig('gateway', {
    searchPlaces: [...CONFIG_FILE_NAMES],
    searchStrategy: 'none',
    ignoreEmptySearchPlaces: false,
    cache: false,
    loaders: { '.yaml': yamlLoader, '.yml': yamlLoader, '.json': yamlLoader, noExt: yamlLoader },
  });
}

interface YamlMark {
  line: number;
  column: number;
  buffer?: string;
}

function markOf(error: unknown): { reason: string; mark: YamlMark } | undefined {
  if (typeof error !== 'object' || error === null || !('mark' in error) || !('reason' in error)) return undefined;
  const { mark, reason } = error;
  if (typeof mark !== 'object' || mark === null || !('line' in mark) || !('column' in mark)) return undefined;
  const { line, column } = mark;
  const buffer = 'buffer' in mark && typeof mark.buffer === 'string' ? mark.buffer : undefined;
  if (typeof line !== 'number' || typeof column !== 'number') return undefined;
  return { reason: String(reason), mark: { line, column, ...(buffer !== undefined ? { buffer } : {}) } };
}

const SECRET_ASSIGNMENT =
  /\b(key|api[-_]?key|token|secret|password|authorization|x-api-key|x-goog-api-key)(["']?\s*:\s*)("(?:[^"\\]|\\.)*"?|'[^']*'?|[^,}\]#\n]*)/gi;
const SECRET_LOOKING = /\b(?:sk|pk|rk)-[A-Za-z0-9_-]{6,}|\bAIza[0-9A-Za-z_-]{10,}/g;

/** A source line fit for an error message: values of secret-named keys and key-shaped tokens become ***. */
export function redactSourceLine(line: string): string {
  return line.replace(SECRET_ASSIGNMENT, '$1$2***').replace(SECRET_LOOKING, '***');
}

/** The failing line and the one before it, redacted, with a caret under the failing column. */
function excerpt(mark: YamlMark): string {
  const source = mark.buffer?.split(/\r?\n/);
  const current = source?.[mark.line];
  if (source === undefined || current === undefined) return '';
  const width = String(mark.line + 1).length;
  const row = (index: number, text: string): string => `\n  ${String(index + 1).padStart(width)} | ${redactSourceLine(text)}`;
  const previous = mark.line > 0 ? source[mark.line - 1] : undefined;
  const caret = redactSourceLine(current.slice(0, mark.column)).length;
  return `${previous === undefined ? '' : row(mark.line - 1, previous)}${row(mark.line, current)}\n  ${' '.repeat(width)} | ${' '.repeat(caret)}^`;
}

function syntaxProblem(file: string, reason: string, mark: YamlMark): ConfigProblem {
  const language = path.extname(file).toLowerCase() === '.json' ? 'JSON' : 'YAML';
  return problemAt([], `${file}:${mark.line + 1}:${mark.column + 1}: ${language} syntax error: ${reason}${excerpt(mark)}`);
}

/** The file the error is about: an `$import`ed file's own path when cosmiconfig or fs names one. */
function fileOf(error: unknown, fallback: string): string {
  if (typeof error !== 'object' || error === null) return fallback;
  if ('filepath' in error && typeof error.filepath === 'string') return error.filepath;
  if ('path' in error && typeof error.path === 'string') return error.path;
  return fallback;
}

function readProblem(requested: string, error: unknown): ConfigProblem {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  const file = fileOf(error, requested);
  const yaml = markOf(error);
  if (yaml) return syntaxProblem(file, yaml.reason, yaml.mark);
  if (code === 'ENOENT') return problemAt([], `config file not found: ${file}`);
  if (code === 'EISDIR') return problemAt([], `config file is a directory: ${file}`);
  if (code === 'EACCES') return problemAt([], `cannot read config file ${file}: permission denied`);
  const message = error instanceof Error ? error.message : String(error);
  return problemAt([], `cannot load config file ${file}: ${message}`);
}

function fileOnly(filePath: string | undefined, problem: ConfigProblem): LoadResult {
  return { filePath, problems: [problem], warnings: [] };
}

async function read(requested: string | undefined, cwd: string): Promise<CosmiconfigResult> {
  return requested === undefined ? explorer().search(cwd) : explorer().load(requested);
}

/** Loads, validates and freezes the configuration; never throws for a bad file (see `problems`). */
export async function loadConfigFile(options: LoadOptions = {}): Promise<LoadResult> {
  const env = options.env ?? process.env;
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const named = options.file ?? (env.GATEWAY_CONFIG || undefined);
  const requested = named === undefined ? undefined : path.resolve(cwd, named);
  if (requested !== undefined && !EXTENSIONS.has(path.extname(requested).toLowerCase())) {
    return fileOnly(requested, problemAt([], `unsupported config file type: ${requested} (use .yaml, .yml or .json)`));
  }
  let found: CosmiconfigResult;
  try {
    found = await read(requested, cwd);
  } catch (error) {
    return fileOnly(requested, readProblem(requested ?? cwd, error));
  }
  if (found === null) {
    const names = CONFIG_FILE_NAMES.join(', ');
    return fileOnly(undefined, problemAt([], `no config file found in ${cwd} (looked for ${names}; name one with GATEWAY_CONFIG)`));
  }
  if (found.isEmpty === true) return fileOnly(found.filepath, problemAt([], `config file is empty: ${found.filepath}`));
  const parsed = parseConfig(found.config, { env, baseDir: path.dirname(found.filepath), filePath: found.filepath });
  return { ...parsed, filePath: found.filepath };
}

/** Like loadConfigFile, but throws a ConfigError listing every problem. For process entry points. */
export async function loadConfig(options: LoadOptions = {}): Promise<{ config: GatewayConfig; warnings: string[]; filePath: string }> {
  const result = await loadConfigFile(options);
  if (result.config === undefined || result.filePath === undefined) throw new ConfigError(result.problems, result.filePath);
  return { config: result.config, warnings: result.warnings, filePath: result.filePath };
}
