// Small value helpers for the Chat codec: guards for untrusted JSON, data URLs, ids, dropped-feature lists.
import { CodecError } from '../codec.ts';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A field that must be absent/null or a finite number. */
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

export function requireString(body: JsonObject, key: string, path = key): string {
  const value = optionalString(body, key, path);
  if (value === undefined) throw new CodecError(`'${path}' is required`, path);
  return value;
}

/** Records a dropped feature once. */
export function addDropped(list: string[], name: string): void {
  if (!list.includes(name)) list.push(name);
}

export interface DataUrl {
  mediaType: string;
  data: string;
}

/** `data:<mime>;base64,<payload>` → parts; undefined when the string is not a base64 data URL. */
export function parseDataUrl(url: string): DataUrl | undefined {
  const match = /^data:([^;,]+)(?:;[^;,]+)*;base64,(.*)$/s.exec(url);
  if (!match) return undefined;
  return { mediaType: match[1] ?? '', data: match[2] ?? '' };
}

export function toDataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}

/** Random hex for ids (Web Crypto global, so the codec imports no I/O module). */
export function randomHex(length = 24): string {
  let out = '';
  while (out.length < length) out += crypto.randomUUID().replace(/-/g, '');
  return out.slice(0, length);
}

export function unixSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Chat ids are `chatcmpl-…`: keep an upstream id already in that form, otherwise mint one. */
export function chatCompletionId(upstreamId: string | undefined): string {
  return upstreamId?.startsWith('chatcmpl-') ? upstreamId : `chatcmpl-${randomHex(29)}`;
}

/** Tool-call id for upstreams that send none. */
export function toolCallId(): string {
  return `call_${randomHex(24)}`;
}
