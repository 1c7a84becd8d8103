// Helpers for the Gemini codec: camelCase-or-snake_case field access, validation, ids.
import { randomBytes } from 'node:crypto';
import { CodecError } from '../codec.ts';

export type JsonObject = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function snakeCase(camel: string): string {
  return camel.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** A field by its camelCase name or its proto snake_case name (Gemini ingress accepts both, protocols.md §4.2). */
export function field(obj: JsonObject, camel: string): unknown {
  const value = obj[camel];
  return value === undefined ? obj[snakeCase(camel)] : value;
}

export function hasField(obj: JsonObject, camel: string): boolean {
  return field(obj, camel) !== undefined && field(obj, camel) !== null;
}

export function expectRecord(value: unknown, path: string): JsonObject {
  if (!isRecord(value)) throw new CodecError(`${path} must be an object`, path);
  return value;
}

export function recordField(obj: JsonObject, camel: string, path: string): JsonObject | undefined {
  const value = field(obj, camel);
  if (value === undefined || value === null) return undefined;
  return expectRecord(value, path);
}

export function arrayField(obj: JsonObject, camel: string, path: string): unknown[] | undefined {
  const value = field(obj, camel);
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new CodecError(`${path} must be an array`, path);
  return value;
}

export function stringOf(obj: JsonObject, camel: string, path: string): string | undefined {
  const value = field(obj, camel);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new CodecError(`${path} must be a string`, path);
  return value;
}

export function requireStringOf(obj: JsonObject, camel: string, path: string): string {
  const value = stringOf(obj, camel, path);
  if (value === undefined) throw new CodecError(`${path} is required`, path);
  return value;
}

export function numberOf(obj: JsonObject, camel: string, path: string): number | undefined {
  const value = field(obj, camel);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new CodecError(`${path} must be a number`, path);
  return value;
}

export function booleanOf(obj: JsonObject, camel: string, path: string): boolean | undefined {
  const value = field(obj, camel);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new CodecError(`${path} must be a boolean`, path);
  return value;
}

export function stringArrayOf(obj: JsonObject, camel: string, path: string): string[] | undefined {
  const value = field(obj, camel);
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw new CodecError(`${path} must be an array of strings`, path);
  }
  return value;
}

/** Lenient readers for upstream payloads (never throw). */
export function numberField(obj: JsonObject | undefined, camel: string): number | undefined {
  const value = obj === undefined ? undefined : field(obj, camel);
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function stringField(obj: JsonObject | undefined, camel: string): string | undefined {
  const value = obj === undefined ? undefined : field(obj, camel);
  return typeof value === 'string' ? value : undefined;
}

export function pushUnique(list: string[], item: string): void {
  if (!list.includes(item)) list.push(item);
}

export function randomId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('hex')}`;
}

/** Tool-call arguments (a JSON string) → the `args` object Gemini wants: '' is {}, anything but an object is a 400. */
export function parseToolArguments(text: string, path: string, status = 400): JsonObject {
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CodecError(`${path} is not valid JSON`, path, status);
  }
  if (!isRecord(parsed)) throw new CodecError(`${path} must encode a JSON object`, path, status);
  return parsed;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
