// `${VAR}` / `${VAR:-default}` in every string value of the raw document; `$${` is a literal `${`.
// A provider whose settings reference an unset variable is not an error: it is recorded in `missingEnv`
// and answers 503 when used. An unset variable anywhere else (keys, server, plugin options) is a problem.
import { formatPath, problemAt } from './problems.ts';
import type { ConfigProblem, PathSegment } from './problems.ts';

export interface InterpolationResult {
  value: unknown;
  problems: ConfigProblem[];
  /** Provider id → names of the unset variables its settings reference (no default given). */
  missingEnv: Map<string, string[]>;
  /** Formatted paths of strings that referenced an unset variable (their value is incomplete). */
  unresolved: Set<string>;
}

type Env = Readonly<Record<string, string | undefined>>;

interface Expansion {
  value: string;
  missing: string[];
  malformed: boolean;
}

const REFERENCE = /^([A-Za-z_][A-Za-z0-9_]*)(?::-([\s\S]*))?$/;

/** Expands one string. An unset (or empty) variable without a default contributes `''` and is reported. */
export function expandString(text: string, env: Env): Expansion {
  let value = '';
  const missing: string[] = [];
  let index = 0;
  while (index < text.length) {
    const dollar = text.indexOf('$', index);
    if (dollar < 0) {
      value += text.slice(index);
      break;
    }
    value += text.slice(index, dollar);
    if (text.startsWith('$${', dollar)) {
      value += '${';
      index = dollar + 3;
      continue;
    }
    if (!text.startsWith('${', dollar)) {
      value += '$';
      index = dollar + 1;
      continue;
    }
    const end = text.indexOf('}', dollar + 2);
    const match = end < 0 ? null : REFERENCE.exec(text.slice(dollar + 2, end));
    if (!match) return { value, missing, malformed: true };
    const [, name = '', fallback] = match;
    const set = env[name];
    if (set !== undefined && set !== '') value += set;
    else if (fallback !== undefined) value += fallback;
    else if (!missing.includes(name)) missing.push(name);
    index = end + 1;
  }
  return { value, missing, malformed: false };
}

function providerOf(segments: readonly PathSegment[]): string | undefined {
  const [section, id] = segments;
  return section === 'providers' && typeof id === 'string' && segments.length > 2 ? id : undefined;
}

function missingMessage(names: readonly string[]): string {
  const list = names.map((name) => `\${${name}}`).join(', ');
  const verb = names.length === 1 ? 'is' : 'are';
  const [first = 'VAR'] = names;
  return `environment variable ${list} ${verb} not set (give a default with \${${first}:-value})`;
}

function expandLeaf(text: string, segments: readonly PathSegment[], env: Env, result: InterpolationResult): string {
  const expansion = expandString(text, env);
  if (expansion.malformed) {
    result.problems.push(
      problemAt(segments, 'malformed ${…} reference: use ${NAME} or ${NAME:-default} (write $${ for a literal "${")'),
    );
    return text;
  }
  if (expansion.missing.length === 0) return expansion.value;
  result.unresolved.add(formatPath(segments));
  const provider = providerOf(segments);
  if (provider === undefined) {
    result.problems.push(problemAt(segments, missingMessage(expansion.missing)));
  } else {
    const names = result.missingEnv.get(provider) ?? [];
    for (const name of expansion.missing) if (!names.includes(name)) names.push(name);
    result.missingEnv.set(provider, names);
  }
  return expansion.value;
}

function walk(value: unknown, segments: PathSegment[], env: Env, result: InterpolationResult): unknown {
  if (typeof value === 'string') return expandLeaf(value, segments, env, result);
  if (Array.isArray(value)) {
    return value.map((item: unknown, index) => walk(item, [...segments, index], env, result));
  }
  if (typeof value === 'object' && value !== null) {
    // fromEntries defines own properties, so a `__proto__` key stays a plain key.
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [key, walk(child, [...segments, key], env, result)]),
    );
  }
  return value;
}

/** Returns a new tree; the input is not modified. Object keys are not interpolated. */
export function interpolate(raw: unknown, env: Env): InterpolationResult {
  const result: InterpolationResult = { value: undefined, problems: [], missingEnv: new Map(), unresolved: new Set() };
  result.value = walk(raw, [], env, result);
  return result;
}
