// Upstream error bodies (Gemini first, but any shape) → IRError (protocols.md §4.7, §8.15).
import type { IRError, IRErrorKind } from '../ir.ts';
import { decodeErrorEnvelope, errorFromObject } from '../shared/decode-error.ts';
import type { ErrorVocabulary } from '../shared/decode-error.ts';
import { ANTHROPIC_ERROR_TYPES, GOOGLE_ERROR_STATUSES, OPENAI_ERROR_TYPES } from '../shared/error-labels.ts';
import type { JsonObject } from '../shared/json.ts';
import { numberField } from './util.ts';

/** Google canonical status (plus Anthropic and OpenAI type spellings) → kind. */
const KIND_BY_LABEL: Record<string, IRErrorKind> = {
  ...GOOGLE_ERROR_STATUSES,
  OUT_OF_RANGE: 'invalid_request',
  UNKNOWN: 'server_error',
  ...ANTHROPIC_ERROR_TYPES,
  ...OPENAI_ERROR_TYPES,
};

/** Gemini bodies name the error by its canonical `status`; a `type` is the second choice. */
const VOCABULARY: ErrorVocabulary = { kinds: KIND_BY_LABEL, labelFields: ['status', 'type'] };

export function decodeGeminiError(status: number, body: unknown): IRError {
  return decodeErrorEnvelope(status, body, VOCABULARY);
}

/** An in-stream `{"error":{code,message,status}}` chunk → IRError (status from `code`, else 500). */
export function decodeStreamError(error: JsonObject): IRError {
  const code = numberField(error, 'code');
  const status = code !== undefined && code >= 400 && code <= 599 ? code : 500;
  return errorFromObject(status, error, 'upstream stream error', VOCABULARY);
}
