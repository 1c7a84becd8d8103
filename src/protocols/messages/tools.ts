// Tool definitions and tool choice ⇄ Anthropic (protocols.md §8.5, §8.6).
import { CodecError } from '../codec.ts';
import type { IRRequest, IRTool, IRToolChoice } from '../ir.ts';
import { expectRecord, pushUnique } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';
import { optionalBoolean, optionalString, requireString } from './util.ts';

export function decodeTools(raw: unknown, dropped: string[]): IRTool[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) throw new CodecError('tools must be an array', 'tools');
  const serverTools: string[] = [];
  const tools: IRTool[] = [];
  raw.forEach((item, i) => {
    const path = `tools[${i}]`;
    const tool = expectRecord(item, path);
    if (tool.type !== undefined && tool.type !== null && tool.type !== 'custom') {
      serverTools.push(String(tool.type));
      return;
    }
    if (tool.cache_control !== undefined) pushUnique(dropped, 'cache_control');
    tools.push(decodeTool(tool, path));
  });
  if (serverTools.length > 0) {
    throw new CodecError(`server tools cannot be translated to other providers: ${serverTools.join(', ')}`, 'tools');
  }
  return tools;
}

function decodeTool(tool: JsonObject, path: string): IRTool {
  const out: IRTool = { name: requireString(tool, 'name', `${path}.name`) };
  const description = optionalString(tool, 'description', `${path}.description`);
  if (description !== undefined) out.description = description;
  if (tool.input_schema !== undefined) out.parameters = expectRecord(tool.input_schema, `${path}.input_schema`);
  const strict = optionalBoolean(tool, 'strict', `${path}.strict`);
  if (strict !== undefined) out.strict = strict;
  return out;
}

export interface DecodedToolChoice {
  choice?: IRToolChoice;
  parallelToolCalls?: boolean;
}

export function decodeToolChoice(raw: unknown): DecodedToolChoice {
  if (raw === undefined || raw === null) return {};
  const choice = expectRecord(raw, 'tool_choice');
  const out: DecodedToolChoice = {};
  if (optionalBoolean(choice, 'disable_parallel_tool_use', 'tool_choice.disable_parallel_tool_use') === true) {
    out.parallelToolCalls = false;
  }
  switch (choice.type) {
    case 'auto':
      out.choice = { type: 'auto' };
      break;
    case 'any':
      out.choice = { type: 'required' };
      break;
    case 'none':
      out.choice = { type: 'none' };
      break;
    case 'tool':
      out.choice = { type: 'tool', name: requireString(choice, 'name', 'tool_choice.name') };
      break;
    default:
      throw new CodecError(`tool_choice.type "${String(choice.type)}" is not supported`, 'tool_choice.type');
  }
  return out;
}

export interface EncodedTools {
  tools?: JsonObject[];
  tool_choice?: JsonObject;
}

/** IR tools + choice → Anthropic `tools` / `tool_choice`; `allowed` filters the tool list (Anthropic has no subset choice). */
export function encodeTools(request: IRRequest, dropped: string[]): EncodedTools {
  const choice = request.toolChoice;
  let tools = request.tools ?? [];
  if (choice?.type === 'allowed') tools = tools.filter((tool) => choice.names.includes(tool.name));
  if (tools.length === 0) {
    if (request.parallelToolCalls === false) pushUnique(dropped, 'parallel_tool_calls');
    return {};
  }
  const out: EncodedTools = { tools: tools.map((tool) => encodeTool(tool, dropped)) };
  const encodedChoice = encodeChoice(choice, request.parallelToolCalls === false);
  if (encodedChoice !== undefined) out.tool_choice = encodedChoice;
  return out;
}

function encodeTool(tool: IRTool, dropped: string[]): JsonObject {
  const out: JsonObject = { name: tool.name };
  if (tool.description !== undefined) out.description = tool.description;
  out.input_schema = objectSchema(tool.parameters);
  if (tool.strict === true) pushUnique(dropped, 'tools.strict');
  return out;
}

/** Anthropic's `input_schema` must be an object schema. */
function objectSchema(parameters: Record<string, unknown> | undefined): JsonObject {
  if (parameters === undefined || Object.keys(parameters).length === 0) return { type: 'object', properties: {} };
  if (parameters.type === undefined) return { type: 'object', ...parameters };
  return parameters;
}

function encodeChoice(choice: IRToolChoice | undefined, noParallel: boolean): JsonObject | undefined {
  const parallel = noParallel ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined) return noParallel ? { type: 'auto', ...parallel } : undefined;
  switch (choice.type) {
    case 'auto':
      return { type: 'auto', ...parallel };
    case 'none':
      return { type: 'none' };
    case 'required':
      return { type: 'any', ...parallel };
    case 'tool':
      return { type: 'tool', name: choice.name, ...parallel };
    case 'allowed':
      return { type: choice.mode === 'required' ? 'any' : 'auto', ...parallel };
  }
}
