// The basic shape each protocol's generation body must have before it is routed (spec §2): enough to
// answer a clear 400 naming the field. Deeper checks belong to the codecs and the upstream.
import { Ajv, type ErrorObject } from 'ajv';
import type { Operation, RequestProtocol } from '../core/context.ts';
import { GatewayError } from '../errors/catalogue.ts';

const ajv = new Ajv({ allErrors: false, coerceTypes: false, strict: false });

const messagesArray = { type: 'array', items: { type: 'object', required: ['role'], properties: { role: { type: 'string' } } } };

const SCHEMAS: Record<RequestProtocol, Record<string, unknown>> = {
  chat: {
    type: 'object',
    required: ['model', 'messages'],
    properties: { model: { type: 'string', minLength: 1 }, messages: { ...messagesArray, minItems: 1 }, stream: { type: 'boolean' } },
  },
  responses: {
    type: 'object',
    required: ['model'],
    properties: {
      model: { type: 'string', minLength: 1 },
      input: { anyOf: [{ type: 'string' }, { type: 'array' }] },
      stream: { type: 'boolean' },
    },
  },
  messages: {
    type: 'object',
    required: ['model', 'messages', 'max_tokens'],
    properties: {
      model: { type: 'string', minLength: 1 },
      messages: messagesArray,
      max_tokens: { type: 'integer', minimum: 1 },
      stream: { type: 'boolean' },
    },
  },
  gemini: {
    type: 'object',
    required: ['contents'],
    properties: { contents: { type: 'array', items: { type: 'object' } } },
  },
};

const COUNT_TOKENS: Partial<Record<RequestProtocol, Record<string, unknown>>> = {
  messages: {
    type: 'object',
    required: ['model', 'messages'],
    properties: { model: { type: 'string', minLength: 1 }, messages: messagesArray },
  },
  gemini: SCHEMAS.gemini,
};

const compiled = new Map<string, ReturnType<typeof ajv.compile>>();

function validatorFor(protocol: RequestProtocol, operation: Operation): ReturnType<typeof ajv.compile> | undefined {
  const schema = operation === 'count_tokens' ? COUNT_TOKENS[protocol] : SCHEMAS[protocol];
  if (!schema) return undefined;
  const id = `${protocol}:${operation}`;
  let validate = compiled.get(id);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(id, validate);
  }
  return validate;
}

function describe(error: ErrorObject): { message: string; param: string } {
  const missing = error.keyword === 'required' ? String(error.params.missingProperty) : undefined;
  const param = missing ?? error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (missing) return { param, message: `Missing required parameter: '${missing}'.` };
  return { param, message: `Invalid value for '${param || 'body'}': ${error.message ?? 'invalid'}.` };
}

export function validateBody(protocol: RequestProtocol, operation: Operation, body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new GatewayError('invalid_request', 'Request body must be a JSON object.');
  }
  const validate = validatorFor(protocol, operation);
  if (validate && !validate(body)) {
    const first = validate.errors?.[0];
    const { message, param } = first ? describe(first) : { message: 'Invalid request body.', param: '' };
    throw new GatewayError('invalid_request', message, param ? { param } : {});
  }
}
