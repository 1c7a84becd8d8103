// Checks that span several parts of the document: targets name existing providers, unique names and keys,
// image models, base-URL conventions. Runs even when the schema failed, so it reads the document defensively.
import { createHash } from 'node:crypto';
import picomatch from 'picomatch';
import { formatPath, problemAt } from './problems.ts';
import type { ConfigProblem, PathSegment } from './problems.ts';
import { BASE_URL_CONVENTION, IMAGE_PROVIDER_TYPES } from './schema.ts';
import { closest } from './suggest.ts';

export interface CrossCheckResult {
  problems: ConfigProblem[];
  warnings: string[];
}

type Entry = Record<string, unknown>;

function asRecord(value: unknown): Entry | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Entry) : undefined;
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Mapping items of a list, with their index. */
function entries(value: unknown): [number, Entry][] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown, index): [number, Entry][] => {
    const entry = asRecord(item);
    return entry ? [[index, entry]] : [];
  });
}

function sha256(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

function checkKeys(keys: unknown, out: CrossCheckResult): void {
  const names = new Map<string, number>();
  const secrets = new Map<string, number>();
  for (const [index, entry] of entries(keys)) {
    const name = asString(entry.name);
    const key = asString(entry.key);
    const keyHash = asString(entry.keyHash)?.toLowerCase();
    if (entry.key !== undefined && entry.keyHash !== undefined) {
      out.problems.push(problemAt(['keys', index], 'set either key or keyHash, not both'));
    } else if (entry.key === undefined && entry.keyHash === undefined) {
      out.problems.push(problemAt(['keys', index, 'key'], 'required (or give keyHash: "sha256:<64 hex digits>")'));
    }
    if (name !== undefined) {
      const first = names.get(name);
      if (first === undefined) names.set(name, index);
      else out.problems.push(problemAt(['keys', index, 'name'], `duplicate key name "${name}" (also keys[${first}])`));
    }
    const fingerprint = key ? sha256(key) : keyHash;
    if (fingerprint === undefined) continue;
    const first = secrets.get(fingerprint);
    if (first === undefined) secrets.set(fingerprint, index);
    else out.problems.push(problemAt(['keys', index, key ? 'key' : 'keyHash'], `same key as keys[${first}]`));
  }
}

function baseUrlWarning(type: string, baseUrl: string): string | undefined {
  if (!URL.canParse(baseUrl)) return undefined;
  const root = baseUrl.replace(/\/+$/, '');
  const segments = new URL(baseUrl).pathname.split('/').filter(Boolean);
  const last = segments.at(-1) ?? '';
  if (type === 'openai' && !segments.some((segment) => /^v\d+/i.test(segment))) {
    return `OpenAI-type baseUrl usually includes a version segment such as /v1; requests will go to ${root}/chat/completions (${BASE_URL_CONVENTION.openai})`;
  }
  if (type === 'anthropic' && /^v\d+/i.test(last)) {
    return `${BASE_URL_CONVENTION.anthropic}; the gateway appends /v1/messages, so this calls ${root}/v1/messages`;
  }
  if (type === 'gemini' && /^v\d+/i.test(last)) {
    return `${BASE_URL_CONVENTION.gemini}; the gateway appends /v1beta/models/…, so this calls ${root}/v1beta/models/…`;
  }
  return undefined;
}

function checkBaseUrls(providers: Entry, unresolved: ReadonlySet<string>, out: CrossCheckResult): void {
  for (const [id, value] of Object.entries(providers)) {
    const settings = asRecord(value);
    const type = asString(settings?.type);
    const baseUrl = asString(settings?.baseUrl);
    const path: PathSegment[] = ['providers', id, 'baseUrl'];
    if (type === undefined || baseUrl === undefined || unresolved.has(formatPath(path))) continue;
    const warning = baseUrlWarning(type, baseUrl);
    if (warning) out.warnings.push(`${formatPath(path)}: ${warning}`);
  }
}

function checkTargets(index: number, model: Entry, providers: Entry, out: CrossCheckResult): void {
  const image = model.type === 'image';
  const known = Object.keys(providers);
  for (const [t, target] of entries(model.targets)) {
    const id = asString(target.provider);
    if (id === undefined) continue;
    const path: PathSegment[] = ['models', index, 'targets', t, 'provider'];
    const provider = Object.hasOwn(providers, id) ? asRecord(providers[id]) : undefined;
    if (!provider) {
      const suggestion = closest(id, known);
      const hint = suggestion ? `did you mean "${suggestion}"?` : `providers: ${known.join(', ') || 'none'}`;
      out.problems.push(problemAt(path, `unknown provider "${id}" (${hint})`));
      continue;
    }
    const type = asString(provider.type);
    if (image && type !== undefined && !IMAGE_PROVIDER_TYPES.some((capable) => capable === type)) {
      out.problems.push(
        problemAt(path, `provider "${id}" (type ${type}) cannot generate images; image models need an openai, gemini or mock provider`),
      );
    }
  }
}

function checkModels(models: unknown, providers: Entry, out: CrossCheckResult): void {
  const names = new Map<string, number>();
  const earlier: { index: number; name: string; matches: (name: string) => boolean }[] = [];
  for (const [index, model] of entries(models)) {
    const name = asString(model.name);
    if (model.type === 'image' && model.sizes === undefined) {
      out.problems.push(problemAt(['models', index, 'sizes'], 'required for image models (e.g. sizes: [1024x1024])'));
    }
    if (model.type !== 'image' && model.sizes !== undefined) {
      out.problems.push(problemAt(['models', index, 'sizes'], 'only image models take sizes (add type: image)'));
    }
    checkTargets(index, model, providers, out);
    if (name === undefined || name === '') continue;
    const first = names.get(name);
    if (first !== undefined) {
      out.problems.push(problemAt(['models', index, 'name'], `duplicate model name "${name}" (also models[${first}])`));
      continue;
    }
    names.set(name, index);
    const shadow = picomatch.scan(name).isGlob ? undefined : earlier.find((entry) => entry.matches(name));
    if (shadow) {
      out.warnings.push(`models[${index}]: "${name}" is never reached: models[${shadow.index}] ("${shadow.name}") matches it first`);
    }
    earlier.push({ index, name, matches: picomatch(name, { dot: true }) });
  }
}

function checkKeyGlobs(keys: unknown, models: unknown, out: CrossCheckResult): void {
  const modelNames = entries(models).flatMap(([, model]) => asString(model.name) ?? []);
  for (const [index, key] of entries(keys)) {
    if (!Array.isArray(key.models)) continue;
    key.models.forEach((glob: unknown, g) => {
      if (typeof glob !== 'string' || glob === '') return;
      const matches = picomatch(glob, { dot: true });
      const reachable = modelNames.some((name) => name === glob || matches(name) || picomatch(name, { dot: true })(glob));
      if (!reachable) out.warnings.push(`keys[${index}].models[${g}]: "${glob}" matches no model`);
    });
  }
}

export function crossCheck(document: unknown, unresolved: ReadonlySet<string>): CrossCheckResult {
  const out: CrossCheckResult = { problems: [], warnings: [] };
  const root = asRecord(document) ?? {};
  const providers = asRecord(root.providers) ?? {};
  checkKeys(root.keys, out);
  checkBaseUrls(providers, unresolved, out);
  checkModels(root.models, providers, out);
  checkKeyGlobs(root.keys, root.models, out);
  return out;
}
