// Gemini generateContent request (camelCase or snake_case) → IR (protocols.md §4.2–§4.4).
import { CodecError } from '../codec.ts';
import type { RequestDecodeContext } from '../codec.ts';
import type { IRMessage, IRRequest } from '../ir.ts';
import { decodeParts } from './parts.ts';
import type { PartIds } from './parts.ts';
import { decodeGenerationConfig, decodeToolConfig, decodeTools } from './request-decode-config.ts';
import { expectRecord, fieldLabel, isRecord, pushUnique } from '../shared/json.ts';
import { arrayField, field, recordField, stringField, stringOf } from './util.ts';

const HANDLED = new Set(['contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig', 'model']);
const KNOWN_DROPPED = ['safetySettings', 'cachedContent', 'serviceTier', 'labels'];

export function decodeGeminiRequest(body: unknown, ctx: RequestDecodeContext = {}): IRRequest {
  if (!isRecord(body)) throw new CodecError('request body must be a JSON object');
  const dropped: string[] = [];
  const model = ctx.model ?? stringOf(body, 'model', 'model');
  if (model === undefined || model === '') throw new CodecError('model is required (in the URL path)', 'model');
  const contents = arrayField(body, 'contents', 'contents');
  if (contents === undefined) throw new CodecError('contents is required and must be an array', 'contents');
  const request: IRRequest = { model: model.replace(/^models\//, ''), messages: decodeContents(contents), stream: ctx.stream ?? false };
  const system = decodeSystemInstruction(field(body, 'systemInstruction'));
  if (system !== undefined) request.system = system;
  const tools = arrayField(body, 'tools', 'tools');
  if (tools !== undefined) request.tools = decodeTools(tools, dropped);
  const toolConfig = recordField(body, 'toolConfig', 'toolConfig');
  const choice = toolConfig === undefined ? undefined : decodeToolConfig(toolConfig);
  if (choice !== undefined) request.toolChoice = choice;
  const generation = recordField(body, 'generationConfig', 'generationConfig');
  if (generation !== undefined) decodeGenerationConfig(request, generation, dropped);
  for (const key of Object.keys(body)) {
    const camel = key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
    if (!HANDLED.has(camel)) pushUnique(dropped, KNOWN_DROPPED.includes(camel) ? camel : fieldLabel(key));
  }
  if (dropped.length > 0) request.dropped = dropped;
  return request;
}

/**
 * Contents → IR messages. Call ids missing in the body are synthesised from position (`call_<turn>_<part>`);
 * a functionResponse without id takes the id of the previous model turn's first unanswered call with that name.
 */
function decodeContents(contents: unknown[]): IRMessage[] {
  let pending: Array<{ id: string; name: string; answered: boolean }> = [];
  const messages: IRMessage[] = [];
  contents.forEach((raw, turn) => {
    const path = `contents[${turn}]`;
    const content = expectRecord(raw, path);
    const role = decodeRole(content.role, `${path}.role`);
    const parts = arrayField(content, 'parts', `${path}.parts`) ?? [];
    const ids: PartIds = {
      call: (explicitId, part) => explicitId ?? `call_${turn}_${part}`,
      result: (name, explicitId, part) => {
        const match = pending.find((call) => !call.answered && (explicitId === undefined ? call.name === name : call.id === explicitId));
        if (match !== undefined) match.answered = true;
        return explicitId ?? match?.id ?? `call_${turn}_${part}`;
      },
    };
    const blocks = decodeParts(parts, { ids, path: `${path}.parts`, strict: true });
    if (role === 'assistant') {
      pending = blocks.flatMap((block) => (block.type === 'tool_call' ? [{ id: block.id, name: block.name, answered: false }] : []));
    }
    if (blocks.length > 0) messages.push({ role, content: blocks });
  });
  return messages;
}

function decodeRole(raw: unknown, path: string): 'user' | 'assistant' {
  if (raw === undefined || raw === null || raw === 'user' || raw === 'function') return 'user';
  if (raw === 'model') return 'assistant';
  throw new CodecError(`${path} must be "user" or "model"`, path);
}

function decodeSystemInstruction(raw: unknown): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'string') return raw;
  const instruction = expectRecord(raw, 'systemInstruction');
  const parts = arrayField(instruction, 'parts', 'systemInstruction.parts') ?? [];
  return parts
    .map((part, i) => {
      const text = isRecord(part) ? stringField(part, 'text') : undefined;
      if (text === undefined) throw new CodecError(`systemInstruction.parts[${i}] must be a text part`, `systemInstruction.parts[${i}]`);
      return text;
    })
    .join('\n');
}
