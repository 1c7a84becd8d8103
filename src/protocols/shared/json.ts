// Guards and parsers for untrusted JSON that every codec needs. One copy, so the four codecs cannot drift
// apart on what counts as an object or how a field name is made safe to report.
import { CodecError } from '../codec.ts';

export type JsonObject = Record<string, unknown>;

/** A plain JSON object: not null and not an array (both are `typeof 'object'`). */
export function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Messages/Gemini wording (`path must be an object`); the OpenAI codecs quote the path and check inline. */
export function expectRecord(value: unknown, path: string): JsonObject {
  if (!isRecord(value)) throw new CodecError(`${path} must be an object`, path);
  return value;
}

/** Adds an item once: dropped-feature lists end up in a header, where repeats are noise. */
export function pushUnique(list: string[], item: string): void {
  if (!list.includes(item)) list.push(item);
}

/** A client-chosen field name made safe for the `x-gateway-dropped` header and logs. */
export function fieldLabel(key: string): string {
  return /^[A-Za-z0-9_.$/=+-]{1,80}$/.test(key) ? key : 'unrecognised field';
}

/** JSON.parse for bodies that may just as well be plain text: undefined instead of a throw. */
export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Tool-call arguments (a JSON string) → the object Anthropic and Gemini want: '' is {}, anything but a
 * JSON object is a CodecError with `status` (400 for a client's history, 502 where an upstream wrote it).
 */
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
