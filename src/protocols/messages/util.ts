// Small validation and id helpers for the Anthropic Messages codec.
import { randomBytes } from 'node:crypto';
import { CodecError } from '../codec.ts';

export type JsonObject = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function expectRecord(value: unknown, path: string): JsonObject {
  if (!isRecord(value)) throw new CodecError(`${path} must be an object`, path);
  return value;
}

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

export function pushUnique(list: string[], item: string): void {
  if (!list.includes(item)) list.push(item);
}

export function randomId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('hex')}`;
}

/** An id in Anthropic's `msg_` form, keeping the source id when there is one. */
export function messageId(id: string | undefined): string {
  if (id === undefined || id === '') return randomId('msg_');
  return id.startsWith('msg_') ? id : `msg_${id}`;
}

/** Tool-call arguments (a JSON string) → the object Anthropic wants: '' is {}, anything but a JSON object is a 400. */
export function parseToolArguments(text: string, path: string): JsonObject {
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CodecError(`${path} is not valid JSON`, path);
  }
  if (!isRecord(parsed)) throw new CodecError(`${path} must encode a JSON object`, path);
  return parsed;
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

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
