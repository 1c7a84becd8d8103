// Small value helpers for the Responses codec: guards for untrusted JSON, data URLs, ids, dropped lists.
import { CodecError } from '../codec.ts';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function optionalNumber(body: JsonObject, key: string, path = key): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new CodecError(`'${path}' must be a number`, path);
  return value;
}

export function optionalString(body: JsonObject, key: string, path = key): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new CodecError(`'${path}' must be a string`, path);
  return value;
}

export function optionalBoolean(body: JsonObject, key: string, path = key): boolean | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new CodecError(`'${path}' must be a boolean`, path);
  return value;
}

export function addDropped(list: string[], name: string): void {
  if (!list.includes(name)) list.push(name);
}

export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+)(?:;[^;,]+)*;base64,(.*)$/s.exec(url);
  if (!match) return undefined;
  return { mediaType: match[1] ?? '', data: match[2] ?? '' };
}

export function toDataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}

/** Random hex for ids (Web Crypto global, so the codec imports no I/O module). */
export function randomHex(length = 32): string {
  let out = '';
  while (out.length < length) out += crypto.randomUUID().replace(/-/g, '');
  return out.slice(0, length);
}

/** Ids by convention (protocols.md §8.16): resp_, msg_, fc_, rs_, call_. */
export function newId(prefix: 'resp' | 'msg' | 'fc' | 'rs' | 'call'): string {
  return `${prefix}_${randomHex(prefix === 'call' ? 24 : 32)}`;
}

export function unixSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
