// Submission checks for POST /v1/images/batches: the body schema (ajv, every problem named by its path,
// e.g. `items[3].size`), the Idempotency-Key header, the request fingerprint compared on replays, and the
// new batch's items — a well-formed size the model does not list fails only that item (`unsupported_size`).
import { createHash } from 'node:crypto';
import { Ajv } from 'ajv';
import type { ErrorObject } from 'ajv';
import { GatewayError } from '../../src/index.ts';
import type { ModelSettings, NewBatchItem } from '../../src/index.ts';

export interface SubmittedItem {
  prompt: string;
  size: string;
  custom_id?: string;
}

export interface Submission {
  model: string;
  items: SubmittedItem[];
  metadata?: Record<string, string>;
}

export const SIZE_PATTERN = '^[1-9][0-9]{0,5}x[1-9][0-9]{0,5}$';
const MAX_PROMPT = 32_000;
const MAX_CUSTOM_ID = 256;
const MAX_IDEMPOTENCY_KEY = 255;
const SHOWN_PROBLEMS = 5;

function submissionSchema(maxItems: number): Record<string, unknown> {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['model', 'items'],
    properties: {
      model: { type: 'string', minLength: 1 },
      items: {
        type: 'array',
        minItems: 1,
        maxItems,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['prompt', 'size'],
          properties: {
            prompt: { type: 'string', minLength: 1, maxLength: MAX_PROMPT },
            size: { type: 'string', pattern: SIZE_PATTERN },
            custom_id: { type: 'string', minLength: 1, maxLength: MAX_CUSTOM_ID },
          },
        },
      },
      metadata: {
        type: 'object',
        maxProperties: 16,
        propertyNames: { maxLength: 64 },
        additionalProperties: { type: 'string', maxLength: 512 },
      },
    },
  };
}

/** `/items/3/size` → `items[3].size` */
function pathOf(instancePath: string): string {
  return instancePath
    .split('/')
    .filter(Boolean)
    .map((segment, position) => (/^\d+$/.test(segment) ? `[${segment}]` : position === 0 ? segment : `.${segment}`))
    .join('');
}

function describe(error: ErrorObject, body: unknown): { param: string; text: string } {
  const at = pathOf(error.instancePath);
  const missing = error.keyword === 'required' ? String(error.params.missingProperty) : undefined;
  if (missing) return { param: at ? `${at}.${missing}` : missing, text: 'is required' };
  if (error.keyword === 'additionalProperties') return { param: at || 'body', text: `has an unknown field "${String(error.params.additionalProperty)}"` };
  if (error.keyword === 'pattern' && at.endsWith('.size')) {
    const value = error.instancePath.split('/').filter(Boolean).reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], body);
    return { param: at, text: `must be <width>x<height>, e.g. 1024x1024 (got ${JSON.stringify(value)})` };
  }
  if (error.keyword === 'minItems' && at === 'items') return { param: at, text: 'must hold at least one item' };
  if (error.keyword === 'maxItems' && at === 'items') {
    const got = Array.isArray((body as { items?: unknown }).items) ? (body as { items: unknown[] }).items.length : 0;
    return { param: at, text: `holds ${got} items; a batch may hold at most ${String(error.params.limit)}. Split it into several batches` };
  }
  return { param: at || 'body', text: error.message ?? 'is invalid' };
}

export function createSubmissionParser(maxItems: number): (body: unknown) => Submission {
  const validate = new Ajv({ allErrors: true, strict: true, coerceTypes: false }).compile<Submission>(submissionSchema(maxItems));
  return (body) => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new GatewayError('invalid_request', 'The request body must be a JSON object: {"model": "...", "items": [{"prompt": "...", "size": "1024x1024"}]}.');
    }
    if (validate(body)) return body;
    const problems = (validate.errors ?? []).map((error) => describe(error, body));
    const unique = [...new Map(problems.map((problem) => [`${problem.param} ${problem.text}`, problem])).values()];
    const first = unique[0] ?? { param: 'body', text: 'is invalid' };
    const more = unique.length > SHOWN_PROBLEMS ? ` (and ${unique.length - SHOWN_PROBLEMS} more)` : '';
    const message = `${unique.slice(0, SHOWN_PROBLEMS).map((problem) => `${problem.param} ${problem.text}`).join('; ')}${more}.`;
    throw new GatewayError('invalid_request', message, { param: first.param });
  };
}

/** The Idempotency-Key header, if any; printable ASCII, at most 255 characters. */
export function idempotencyKeyOf(headers: Readonly<Record<string, string | string[] | undefined>>): string | undefined {
  const raw = headers['idempotency-key'];
  if (raw === undefined) return undefined;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value || value.length > MAX_IDEMPOTENCY_KEY || !/^[\x21-\x7e]+$/.test(value)) {
    throw new GatewayError('invalid_request', `Idempotency-Key must be 1-${MAX_IDEMPOTENCY_KEY} printable ASCII characters without spaces.`, { param: 'Idempotency-Key' });
  }
  return value;
}

/** A stable fingerprint of what was asked for (key order in the JSON does not matter). */
export function requestHash(submission: Submission): string {
  const canonical = {
    model: submission.model,
    items: submission.items.map((item) => [item.prompt, item.size, item.custom_id ?? null]),
    metadata: Object.entries(submission.metadata ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  };
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

export function newBatchItems(submission: Submission, model: ModelSettings): NewBatchItem[] {
  const sizes = new Set(model.sizes ?? []);
  const listed = [...sizes].join(', ');
  return submission.items.map((item) => ({
    prompt: item.prompt,
    size: item.size,
    ...(item.custom_id !== undefined ? { customId: item.custom_id } : {}),
    ...(sizes.has(item.size)
      ? {}
      : { initialError: { code: 'unsupported_size', message: `Size ${item.size} is not supported by model "${submission.model}"; supported sizes: ${listed || 'none'}.` } }),
  }));
}
