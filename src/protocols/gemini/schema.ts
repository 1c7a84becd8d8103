// Gemini OpenAPI-subset Schema → plain JSON Schema (protocols.md §4.4, §8.5). Property names are data:
// only schema keywords are renamed (snake_case → camelCase) and converted.

import { isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';

/** Keywords whose value is itself a schema, a map of schemas, or a list of schemas. */
const SCHEMA_VALUED = new Set(['items']);
const SCHEMA_MAP = new Set(['properties']);
const SCHEMA_LIST = new Set(['anyOf']);
/** Gemini-only keywords with no JSON Schema meaning. */
const GEMINI_ONLY = new Set(['nullable', 'propertyOrdering', 'example']);

function camelCase(key: string): string {
  return key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

export function geminiSchemaToJsonSchema(schema: unknown): JsonObject {
  if (!isRecord(schema)) return {};
  const out: JsonObject = {};
  for (const [rawKey, value] of Object.entries(schema)) {
    const key = camelCase(rawKey);
    if (GEMINI_ONLY.has(key)) continue;
    if (key === 'type') out.type = typeof value === 'string' ? value.toLowerCase() : value;
    else if (SCHEMA_VALUED.has(key)) out[key] = geminiSchemaToJsonSchema(value);
    else if (SCHEMA_MAP.has(key)) out[key] = mapValues(value);
    else if (SCHEMA_LIST.has(key)) out[key] = Array.isArray(value) ? value.map(geminiSchemaToJsonSchema) : value;
    else out[key] = value;
  }
  const example = schema.example;
  if (example !== undefined) out.examples = [example];
  if (schema.nullable === true) makeNullable(out);
  return out;
}

function mapValues(value: unknown): unknown {
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, geminiSchemaToJsonSchema(sub)]));
}

/** `nullable: true` → `type: [T, "null"]` (or an anyOf branch when there is no single type). */
function makeNullable(out: JsonObject): void {
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
  } else if (Array.isArray(out.anyOf)) {
    out.anyOf = [...out.anyOf, { type: 'null' }];
  }
}
