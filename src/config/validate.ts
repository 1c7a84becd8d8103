// Runs the ajv schema (all errors, no coercion) and turns ajv errors into readable problems with YAML paths.
import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { formatPath, problemAt } from './problems.ts';
import type { ConfigProblem, PathSegment } from './problems.ts';
import { CONFIG_SCHEMA } from './schema.ts';
import type { RawConfig } from './schema.ts';
import { didYouMean } from './suggest.ts';

export interface SchemaResult {
  /** The document, typed, when the schema accepted it. */
  valid: RawConfig | undefined;
  problems: ConfigProblem[];
}

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:';
}

function createValidator(): ValidateFunction<RawConfig> {
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    coerceTypes: false,
    useDefaults: false,
    strict: true,
    allowUnionTypes: true,
  });
  for (const keyword of ['errorText', 'errorHint', 'label']) ajv.addKeyword({ keyword, schemaType: 'string' });
  ajv.addFormat('http-url', isHttpUrl);
  return ajv.compile<RawConfig>(CONFIG_SCHEMA);
}

let compiled: ValidateFunction<RawConfig> | undefined;
/** Compiled on first use, not at import. */
function validator(): ValidateFunction<RawConfig> {
  compiled ??= createValidator();
  return compiled;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** JSON pointer → path segments; array indexes become numbers by looking at the document. */
function segmentsOf(pointer: string, document: unknown): PathSegment[] {
  const segments: PathSegment[] = [];
  let node = document;
  for (const escaped of pointer.split('/').slice(1)) {
    const key = escaped.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      segments.push(Number(key));
      node = node[Number(key)];
    } else {
      segments.push(key);
      node = record(node)[key];
    }
  }
  return segments;
}

const TYPE_NAMES: Record<string, string> = {
  object: 'a mapping',
  array: 'a list',
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  null: 'empty',
};

function typeMessage(types: unknown): string {
  const names = String(types)
    .split(',')
    .map((name) => TYPE_NAMES[name] ?? name);
  return `must be ${names.join(' or ')}`;
}

function quoteList(values: readonly unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(', ');
}

function enumMessage(allowed: readonly unknown[], data: unknown): string {
  const suggestion = typeof data === 'string' ? didYouMean(data, allowed.filter((v) => typeof v === 'string')) : '';
  return `must be one of ${quoteList(allowed)}${suggestion}`;
}

function limitMessage(error: ErrorObject): string {
  const limit = Number(error.params.limit);
  switch (error.keyword) {
    case 'minItems':
    case 'minLength':
    case 'minProperties':
      return limit === 1 ? 'must not be empty' : `must have at least ${limit}`;
    case 'maxProperties':
      return `must have at most ${limit} ${limit === 1 ? 'key' : 'keys'}`;
    case 'minimum':
      return `must be at least ${limit}`;
    case 'maximum':
      return `must be at most ${limit}`;
    case 'pattern':
      return `must match ${String(error.params.pattern)}`;
    default:
      return error.message ?? 'is invalid';
  }
}

function unknownKeyMessage(key: string, schema: Record<string, unknown>): string {
  const allowed = Object.keys(record(schema.properties));
  const label = text(schema.label);
  const where = label ? ` for ${label}` : '';
  const suggestion = didYouMean(key, allowed);
  return `unknown key "${key}"${where}${suggestion || ` (allowed: ${allowed.join(', ')})`}`;
}

function requiredProblem(at: PathSegment[], error: ErrorObject, schema: Record<string, unknown>): ConfigProblem {
  const missing = String(error.params.missingProperty);
  const property = record(record(schema.properties)[missing]);
  const hint = text(property.errorHint);
  return problemAt([...at, missing], text(property.errorText) ?? (hint ? `required (${hint})` : 'required'));
}

function describe(error: ErrorObject, document: unknown): ConfigProblem | undefined {
  const at = segmentsOf(error.instancePath, document);
  const schema = record(error.parentSchema);
  const own = text(schema.errorText);
  if (error.propertyName !== undefined) return problemAt([...at, error.propertyName], own ?? 'invalid key');
  switch (error.keyword) {
    case 'if':
    case 'propertyNames':
      return undefined;
    case 'required':
      return requiredProblem(at, error, schema);
    case 'additionalProperties':
      return problemAt([...at, String(error.params.additionalProperty)], unknownKeyMessage(String(error.params.additionalProperty), schema));
    case 'type':
      return problemAt(at, typeMessage(error.params.type));
    case 'enum':
      return problemAt(at, enumMessage(Array.isArray(error.params.allowedValues) ? error.params.allowedValues : [], error.data));
    case 'const':
      return problemAt(at, `must be ${JSON.stringify(error.params.allowedValue)}`);
    case 'format': {
      const hint = text(schema.errorHint);
      return problemAt(at, `must be an absolute http(s) URL${hint ? ` (${hint})` : ''}`);
    }
    default:
      return problemAt(at, own ?? limitMessage(error));
  }
}

/** Strings that referenced an unset variable are reported by interpolation; skip their shape checks. */
const SHAPE_KEYWORDS = new Set(['format', 'pattern', 'minLength']);

/** Only shape checks on unresolved strings failed: the document has the schema's structure. */
function acceptedApartFromUnresolved(document: unknown, problems: readonly ConfigProblem[]): document is RawConfig {
  return problems.length === 0;
}

export function validateSchema(document: unknown, unresolved: ReadonlySet<string> = new Set()): SchemaResult {
  const validate = validator();
  if (validate(document)) return { valid: document, problems: [] };
  const problems: ConfigProblem[] = [];
  for (const error of validate.errors ?? []) {
    if (SHAPE_KEYWORDS.has(error.keyword) && unresolved.has(formatPath(segmentsOf(error.instancePath, document)))) {
      continue;
    }
    const problem = describe(error, document);
    if (problem) problems.push(problem);
  }
  return { valid: acceptedApartFromUnresolved(document, problems) ? document : undefined, problems };
}
