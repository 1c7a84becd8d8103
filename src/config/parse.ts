// Raw document → frozen GatewayConfig: interpolate ${ENV} → schema → cross-checks → plugin names →
// defaults → deep-freeze. Every problem is collected before giving up. Pure: reads only `options.env`
// (never process.env) and the filesystem under baseDir (plugin paths and packages).
import path from 'node:path';
import { crossCheck } from './cross-check.ts';
import { buildConfig } from './defaults.ts';
import { deepFreeze } from './freeze.ts';
import { interpolate } from './interpolate.ts';
import { resolvePlugins } from './plugins.ts';
import { dedupeProblems, problemAt, sortByDocumentOrder } from './problems.ts';
import type { ConfigProblem } from './problems.ts';
import type { GatewayConfig } from './types.ts';
import { validateSchema } from './validate.ts';

export type Env = Readonly<Record<string, string | undefined>>;

export interface ParseOptions {
  /** Variables for ${VAR} interpolation and the `PORT` override. Default: none. */
  env?: Env;
  /** Directory relative plugin paths and the sqlite path resolve against (the config file's directory). */
  baseDir: string;
  filePath?: string;
}

export interface ParseResult {
  /** Present only when there are no problems: validated, defaulted, deep-frozen. */
  config?: GatewayConfig;
  problems: ConfigProblem[];
  /** Non-fatal findings (unset provider variables, base-URL conventions, unreachable models…). */
  warnings: string[];
}

interface PortOverride {
  port?: number;
  problems: ConfigProblem[];
}

/** `PORT` overrides server.port; an empty value is ignored. */
export function portFromEnv(value: string | undefined): PortOverride {
  if (value === undefined || value.trim() === '') return { problems: [] };
  const port = /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (Number.isInteger(port) && port <= 65535) return { port, problems: [] };
  const shown = JSON.stringify(value.slice(0, 20));
  return { problems: [problemAt(['server', 'port'], `the PORT environment variable must be an integer from 0 to 65535 (got ${shown})`)] };
}

function missingEnvWarnings(missingEnv: ReadonlyMap<string, readonly string[]>): string[] {
  return [...missingEnv].map(([provider, names]) => {
    const list = names.length === 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
    const verb = names.length === 1 ? 'is' : 'are';
    return `provider ${provider}: ${list} ${verb} not set; requests routed to it will answer 503`;
  });
}

function sectionOf(document: unknown, key: string): unknown {
  return typeof document === 'object' && document !== null && !Array.isArray(document)
    ? Object.entries(document).find(([name]) => name === key)?.[1]
    : undefined;
}

export function parseConfig(raw: unknown, options: ParseOptions): ParseResult {
  if (raw === undefined || raw === null) {
    return { problems: [problemAt([], 'the configuration is empty: it needs at least keys, providers and models')], warnings: [] };
  }
  const env = options.env ?? {};
  const baseDir = path.resolve(options.baseDir);
  const interpolation = interpolate(raw, env);
  const document = interpolation.value;
  const port = portFromEnv(env.PORT);
  const schema = validateSchema(document, interpolation.unresolved);
  const checks = crossCheck(document, interpolation.unresolved);
  const plugins = resolvePlugins(sectionOf(document, 'plugins'), baseDir);
  const found = [...interpolation.problems, ...port.problems, ...schema.problems, ...checks.problems, ...plugins.problems];
  const problems = sortByDocumentOrder(dedupeProblems(found), document);
  const warnings = [...missingEnvWarnings(interpolation.missingEnv), ...checks.warnings, ...plugins.warnings];
  if (problems.length > 0 || schema.valid === undefined) return { problems, warnings };
  const config = buildConfig(schema.valid, {
    baseDir,
    ...(options.filePath !== undefined ? { filePath: path.resolve(options.filePath) } : {}),
    ...(port.port !== undefined ? { portOverride: port.port } : {}),
    missingEnv: interpolation.missingEnv,
    unresolved: interpolation.unresolved,
    plugins: plugins.plugins,
  });
  return { config: deepFreeze(config), problems: [], warnings };
}
