// Helpers for the Gemini codec: camelCase-or-snake_case field access and validation. The JSON guards it shares
// with the other codecs are in ../shared/json.ts.
import { CodecError } from '../codec.ts';
import { expectRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';

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
