// Validation (Anthropic wording: the path unquoted) and id helpers for the Messages codec. The JSON guards it
// shares with the other codecs are in ../shared/json.ts.
import { CodecError } from '../codec.ts';
import { randomId } from '../shared/ids.ts';
import { parseToolArguments } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';

export function requireString(obj: JsonObject, key: string, path: string): string {
  const value = obj[key];
  if (typeof value !== 'string') throw new CodecError(`${path} is required and must be a string`, path);
  return value;
}

export function optionalString(obj: JsonObject, key: string, path: string): string | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new CodecError(`${path} must be a string`, path);
  return value;
}

export function optionalNumber(obj: JsonObject, key: string, path: string): number | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new CodecError(`${path} must be a number`, path);
  return value;
}

export function optionalBoolean(obj: JsonObject, key: string, path: string): boolean | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new CodecError(`${path} must be a boolean`, path);
  return value;
}

export function optionalStringArray(obj: JsonObject, key: string, path: string): string[] | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw new CodecError(`${path} must be an array of strings`, path);
  }
  return value;
}

/** A number field of an upstream payload, or undefined when absent/null/not a number. */
export function numberField(obj: JsonObject | undefined, key: string): number | undefined {
  const value = obj?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function stringField(obj: JsonObject | undefined, key: string): string | undefined {
  const value = obj?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** An id in Anthropic's `msg_` form, keeping the source id when there is one. */
export function messageId(id: string | undefined): string {
  if (id === undefined || id === '') return randomId('msg_');
  return id.startsWith('msg_') ? id : `msg_${id}`;
}

/** Arguments an upstream produced: broken JSON there is the upstream's fault (502), not the client's. */
export function parseUpstreamArguments(text: string, path: string): JsonObject {
  try {
    return parseToolArguments(text, path);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new CodecError(`upstream tool call: ${message}`, path, 502);
  }
}
