// Upstream error bodies of any shape → IRError. Two readers, kept apart on purpose because clients see the
// difference: the OpenAI codecs (Chat, Responses) unwrap JSON nested in strings and keep up to 1000
// characters of plain text; the Messages and Gemini codecs parse once and keep up to 500. What a label
// means, and what an in-band (status < 400) error is, stays with each codec.
import { kindForStatus } from '../error-shapes.ts';
import type { IRError, IRErrorKind } from '../ir.ts';
import { isRecord, tryParseJson } from './json.ts';
import type { JsonObject } from './json.ts';

// ---- OpenAI codecs: body → ErrorInfo, then the codec classifies it ----

export interface ErrorInfo {
  message?: string;
  type?: string;
  code?: string;
  param?: string;
}

/** Empty strings say nothing, so they count as absent. */
export function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The usual fields of an error object; the envelope's own `message` is the last resort (vLLM-style bodies). */
export function errorInfoFields(source: JsonObject, envelope: JsonObject): ErrorInfo {
  const info: ErrorInfo = {};
  const fields: Array<[keyof ErrorInfo, string | undefined]> = [
    ['message', nonEmptyString(source['message']) ?? nonEmptyString(source['detail']) ?? nonEmptyString(envelope['message'])],
    ['type', nonEmptyString(source['type']) ?? nonEmptyString(source['status'])],
    ['code', nonEmptyString(source['code'])],
    ['param', nonEmptyString(source['param'])],
  ];
  for (const [key, value] of fields) if (value !== undefined) info[key] = value;
  return info;
}

/** JSON text (nested too), an array (its first element) or an object → ErrorInfo; other text is the message. */
export function extractErrorInfo(body: unknown, fromObject: (body: JsonObject) => ErrorInfo): ErrorInfo {
  if (typeof body === 'string') {
    try {
      return extractErrorInfo(JSON.parse(body) as unknown, fromObject);
    } catch {
      const text = body.trim();
      return text === '' ? {} : { message: text.slice(0, 1000) };
    }
  }
  if (Array.isArray(body)) return extractErrorInfo(body[0], fromObject);
  return isRecord(body) ? fromObject(body) : {};
}

/** The IRError for a classified ErrorInfo; the fallback message names the status the upstream sent. */
export function errorFromInfo(info: ErrorInfo, upstreamStatus: number, classified: { status: number; kind: IRErrorKind }): IRError {
  const message = info.message ?? `Upstream returned HTTP ${upstreamStatus}`;
  const error: IRError = { status: classified.status, kind: classified.kind, message };
  if (info.code !== undefined) error.code = info.code;
  if (info.param !== undefined) error.param = info.param;
  return error;
}

// ---- Messages and Gemini codecs: `{error:{…}}` envelopes, labels read in the codec's order ----

export interface ErrorVocabulary {
  /** Label → kind; labels not listed fall back to the HTTP status. */
  kinds: Readonly<Record<string, IRErrorKind>>;
  /** Fields of the error object that carry its label, most trusted first. */
  labelFields: readonly string[];
}

const MAX_TEXT = 500;

export function decodeErrorEnvelope(status: number, body: unknown, vocabulary: ErrorVocabulary): IRError {
  const parsed = typeof body === 'string' ? tryParseJson(body) : body;
  const envelope = Array.isArray(parsed) ? parsed[0] : parsed;
  const inner = isRecord(envelope) ? envelope['error'] : undefined;
  const fallback = `upstream returned HTTP ${status}`;
  if (isRecord(inner)) return errorFromObject(status, inner, fallback, vocabulary);
  if (typeof inner === 'string') return { status, kind: kindForStatus(status), message: inner };
  const topMessage = isRecord(envelope) ? stringAt(envelope, 'message') : undefined;
  const text = typeof body === 'string' && body.trim() !== '' && parsed === undefined ? body.trim().slice(0, MAX_TEXT) : undefined;
  return { status, kind: kindForStatus(status), message: topMessage ?? text ?? fallback };
}

/** An `error` object → IRError; a label saying invalid_request is trusted only on a plain 400. */
export function errorFromObject(status: number, error: JsonObject, fallback: string, vocabulary: ErrorVocabulary): IRError {
  const label = vocabulary.labelFields.map((key) => stringAt(error, key)).find((value) => value !== undefined);
  const labelled = label === undefined ? undefined : vocabulary.kinds[label];
  const kind = labelled === undefined || (labelled === 'invalid_request' && status !== 400) ? kindForStatus(status) : labelled;
  const out: IRError = { status, kind, message: stringAt(error, 'message') ?? fallback };
  const code = stringAt(error, 'code') ?? detailReason(error['details']);
  if (code !== undefined) out.code = code;
  const param = stringAt(error, 'param');
  if (param !== undefined) out.param = param;
  return out;
}

function stringAt(obj: JsonObject, key: string): string | undefined {
  const value = obj[key];
  return typeof value === 'string' ? value : undefined;
}

/** Google puts the machine-readable reason in `details[].reason` rather than in `code`. */
function detailReason(details: unknown): string | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    const reason = isRecord(detail) ? stringAt(detail, 'reason') : undefined;
    if (reason !== undefined) return reason;
  }
  return undefined;
}
