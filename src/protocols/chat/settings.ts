// Chat generation settings ⇄ IR: stop, response_format, reasoning_effort (protocols.md §1.1, §8.9–§8.11).
import { CodecError } from '../codec.ts';
import type { IREffort, IRReasoningConfig, IRResponseFormat } from '../ir.ts';
import { isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';

export const EFFORTS: readonly IREffort[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];

export function decodeStop(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
  throw new CodecError("'stop' must be a string or an array of strings", 'stop');
}

export function decodeResponseFormat(value: unknown): IRResponseFormat | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw new CodecError("'response_format' must be an object", 'response_format');
  if (value['type'] === 'text' || value['type'] === 'json_object') return { type: value['type'] };
  if (value['type'] !== 'json_schema') {
    throw new CodecError(`response_format type '${String(value['type'])}' is not supported`, 'response_format.type');
  }
  const spec = value['json_schema'];
  if (!isRecord(spec)) throw new CodecError("'response_format.json_schema' is required", 'response_format.json_schema');
  const out: IRResponseFormat = { type: 'json_schema', schema: isRecord(spec['schema']) ? spec['schema'] : {} };
  if (typeof spec['name'] === 'string') out.name = spec['name'];
  if (typeof spec['description'] === 'string') out.description = spec['description'];
  if (typeof spec['strict'] === 'boolean') out.strict = spec['strict'];
  return out;
}

/** Chat requires a schema name; IR formats without one get this placeholder. */
export const DEFAULT_SCHEMA_NAME = 'response';

export function encodeResponseFormat(format: IRResponseFormat): JsonObject {
  if (format.type !== 'json_schema') return { type: format.type };
  const spec: JsonObject = { name: format.name ?? DEFAULT_SCHEMA_NAME };
  if (format.description !== undefined) spec['description'] = format.description;
  spec['schema'] = format.schema;
  if (format.strict !== undefined) spec['strict'] = format.strict;
  return { type: 'json_schema', json_schema: spec };
}

export function decodeEffort(value: unknown, path: string): IREffort | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && (EFFORTS as readonly string[]).includes(value)) return value as IREffort;
  throw new CodecError(`'${path}' must be one of ${EFFORTS.join(', ')}`, path);
}

export function decodeReasoningEffort(value: unknown): IRReasoningConfig | undefined {
  const effort = decodeEffort(value, 'reasoning_effort');
  return effort === undefined ? undefined : { enabled: effort !== 'none', effort };
}

/** Budget → effort, the inverse of the heuristic table in protocols.md §8.11. */
export function effortForBudget(budget: number): IREffort {
  if (budget <= 1024) return 'minimal';
  if (budget <= 2048) return 'low';
  if (budget <= 8192) return 'medium';
  return 'high';
}

/** IR reasoning config → Chat `reasoning_effort` (undefined = leave the model default). */
export function encodeEffort(reasoning: IRReasoningConfig): IREffort | undefined {
  if (reasoning.effort !== undefined) return reasoning.effort;
  if (!reasoning.enabled) return undefined;
  return reasoning.budgetTokens !== undefined ? effortForBudget(reasoning.budgetTokens) : 'medium';
}
