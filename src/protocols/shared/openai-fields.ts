// Field validators for the two OpenAI codecs (Chat, Responses), which word their 400s alike: the
// offending path in quotes. Messages and Gemini keep their own wording in their util.ts.
import { CodecError } from '../codec.ts';
import type { RequestDecodeContext } from '../codec.ts';
import type { JsonObject } from './json.ts';

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

/** The model from the route when it has one (it wins over the body), else the body's required `model`. */
export function decodeModel(body: JsonObject, ctx: RequestDecodeContext | undefined): string {
  if (ctx?.model !== undefined) return ctx.model;
  const model = body['model'];
  if (typeof model !== 'string' || model === '') throw new CodecError("'model' is required", 'model');
  return model;
}
