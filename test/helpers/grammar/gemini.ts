// Grammar checker for Gemini streams (protocols.md §0.1, §0.2, §4.6): returns violations, [] when valid.
// SSE form: every frame is exactly one `data:` line holding one GenerateContentResponse JSON object, no `event:`
// lines; finishReason only on the last chunk; or an `{"error":{code,message,status}}` chunk ending the stream.
import { isObject, parseSse, tryJson } from './sse.ts';

const FINISH_REASONS = new Set([
  'FINISH_REASON_UNSPECIFIED', 'STOP', 'MAX_TOKENS', 'SAFETY', 'RECITATION', 'LANGUAGE', 'OTHER', 'BLOCKLIST',
  'PROHIBITED_CONTENT', 'SPII', 'MALFORMED_FUNCTION_CALL', 'IMAGE_SAFETY', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS',
  'IMAGE_PROHIBITED_CONTENT', 'NO_IMAGE', 'IMAGE_RECITATION', 'IMAGE_OTHER',
]);
const PART_KEYS = ['text', 'functionCall', 'functionResponse', 'inlineData', 'fileData', 'executableCode', 'codeExecutionResult'];
const USAGE_KEYS = ['promptTokenCount', 'candidatesTokenCount', 'totalTokenCount', 'thoughtsTokenCount', 'cachedContentTokenCount', 'toolUsePromptTokenCount'];

type Chunk = Record<string, unknown>;

/** Checks a sequence of parsed chunks (shared by the SSE and JSON-array forms). */
function checkChunks(chunks: unknown[], violations: string[]): void {
  let responseId: unknown;
  let finished = false;
  chunks.forEach((value, n) => {
    const at = `chunk ${n}`;
    if (!isObject(value)) return violations.push(`${at}: not a JSON object`);
    if (finished) violations.push(`${at}: chunk after the one carrying finishReason or error`);
    if (value.error !== undefined) {
      checkError(at, value, violations);
      finished = true;
      return;
    }
    if (responseId !== undefined && value.responseId !== responseId) violations.push(`${at}: responseId changed`);
    responseId = value.responseId;
    if (checkChunk(at, value, violations)) finished = true;
  });
  if (!finished) violations.push('stream ended without a finishReason or an error chunk');
}

function checkError(at: string, chunk: Chunk, violations: string[]): void {
  const error = chunk.error;
  if (!isObject(error) || typeof error.code !== 'number' || error.code < 400 || error.code > 599) {
    violations.push(`${at}: error.code must be an HTTP status 400–599`);
    return;
  }
  if (typeof error.message !== 'string' || typeof error.status !== 'string') violations.push(`${at}: error needs message and status`);
}

/** Returns true when the chunk carries a finishReason (or blocks the prompt). */
function checkChunk(at: string, chunk: Chunk, violations: string[]): boolean {
  if (typeof chunk.modelVersion !== 'string') violations.push(`${at}: modelVersion must be a string`);
  if (typeof chunk.responseId !== 'string') violations.push(`${at}: responseId must be a string`);
  checkUsage(at, chunk.usageMetadata, violations);
  if (chunk.candidates === undefined) {
    if (isObject(chunk.promptFeedback)) return true;
    violations.push(`${at}: no candidates and no promptFeedback`);
    return false;
  }
  if (!Array.isArray(chunk.candidates) || chunk.candidates.length !== 1 || !isObject(chunk.candidates[0])) {
    violations.push(`${at}: candidates must hold one candidate object`);
    return false;
  }
  const candidate = chunk.candidates[0];
  if (candidate.index !== undefined && candidate.index !== 0) violations.push(`${at}: candidate.index must be 0`);
  if (candidate.content !== undefined) checkContent(at, candidate.content, violations);
  if (candidate.finishReason === undefined) return false;
  if (typeof candidate.finishReason !== 'string' || !FINISH_REASONS.has(candidate.finishReason)) {
    violations.push(`${at}: unknown finishReason ${String(candidate.finishReason)}`);
  }
  return true;
}

function checkContent(at: string, content: unknown, violations: string[]): void {
  if (!isObject(content) || content.role !== 'model' || !Array.isArray(content.parts)) {
    violations.push(`${at}: content must be {role:"model", parts:[…]}`);
    return;
  }
  content.parts.forEach((part, i) => {
    const where = `${at}: parts[${i}]`;
    if (!isObject(part)) return violations.push(`${where} is not an object`);
    const kinds = PART_KEYS.filter((key) => part[key] !== undefined);
    if (kinds.length !== 1) return violations.push(`${where} must hold exactly one of ${PART_KEYS.join('/')}`);
    if (part.text !== undefined && typeof part.text !== 'string') violations.push(`${where}.text must be a string`);
    if (part.thought !== undefined && typeof part.thought !== 'boolean') violations.push(`${where}.thought must be a boolean`);
    if (part.thoughtSignature !== undefined && typeof part.thoughtSignature !== 'string') violations.push(`${where}.thoughtSignature must be a string`);
    const call = part.functionCall;
    if (call !== undefined && (!isObject(call) || typeof call.name !== 'string' || !isObject(call.args))) {
      violations.push(`${where}.functionCall needs a name and an args object`);
    }
  });
}

function checkUsage(at: string, usage: unknown, violations: string[]): void {
  if (usage === undefined) return;
  if (!isObject(usage)) return void violations.push(`${at}: usageMetadata must be an object`);
  for (const key of USAGE_KEYS) {
    if (usage[key] !== undefined && typeof usage[key] !== 'number') violations.push(`${at}: usageMetadata.${key} must be a number`);
  }
}

/** The `alt=sse` form. */
export function checkGeminiStream(text: string): string[] {
  const violations: string[] = [];
  const rawFrames = text.split(/\r\n\r\n|\n\n|\r\r/);
  const tail = rawFrames.pop();
  if (tail !== undefined && tail.trim() !== '') violations.push('stream does not end with a blank line');
  rawFrames.forEach((frame, n) => {
    const lines = frame.split(/\r\n|\n|\r/).filter((line) => line !== '');
    if (lines.some((line) => line.startsWith('event:'))) violations.push(`frame ${n}: has an "event:" line`);
    if (lines.length !== 1 || !lines[0]!.startsWith('data:')) violations.push(`frame ${n}: must be exactly one "data:" line`);
  });
  const frames = parseSse(text);
  const chunks = frames.map((frame, n) => {
    const parsed = tryJson(frame.data);
    if (!parsed.ok) violations.push(`frame ${n}: data is not JSON`);
    return parsed.ok ? parsed.value : undefined;
  });
  checkChunks(chunks, violations);
  return violations;
}

/** The JSON-array form (`:streamGenerateContent` without `alt=sse`). */
export function checkGeminiJsonArrayStream(text: string): string[] {
  const parsed = tryJson(text);
  if (!parsed.ok || !Array.isArray(parsed.value)) return ['body is not a JSON array'];
  const violations: string[] = [];
  checkChunks(parsed.value, violations);
  return violations;
}
