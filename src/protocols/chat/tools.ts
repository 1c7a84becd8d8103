// Chat tool definitions and tool_choice ⇄ IR (protocols.md §1.1, §8.5, §8.6). Tools nest under `function`.
import { CodecError } from '../codec.ts';
import type { IRTool, IRToolChoice } from '../ir.ts';
import { isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';
import { decodeFunctionTools, decodeToolChoiceWith, encodeToolChoiceWith, functionDefinition } from '../shared/openai-tools.ts';

function decodeTool(tool: JsonObject, path: string): IRTool {
  const fn = tool['function'];
  if (!isRecord(fn)) throw new CodecError(`'${path}.function.name' is required`, `${path}.function.name`);
  return functionDefinition(fn, `${path}.function`);
}

export function decodeTools(tools: unknown): IRTool[] | undefined {
  return decodeFunctionTools(tools, decodeTool);
}

function functionName(ref: unknown, path: string): string {
  const fn = isRecord(ref) ? ref['function'] : undefined;
  if (!isRecord(fn) || typeof fn['name'] !== 'string') throw new CodecError(`'${path}.function.name' is required`, `${path}.function.name`);
  return fn['name'];
}

function decodeAllowed(choice: JsonObject): IRToolChoice {
  const allowed = choice['allowed_tools'];
  if (!isRecord(allowed) || !Array.isArray(allowed['tools'])) {
    throw new CodecError("'tool_choice.allowed_tools.tools' must be an array", 'tool_choice.allowed_tools.tools');
  }
  const mode = allowed['mode'];
  if (mode !== 'auto' && mode !== 'required') {
    throw new CodecError("'tool_choice.allowed_tools.mode' must be 'auto' or 'required'", 'tool_choice.allowed_tools.mode');
  }
  const names = allowed['tools'].map((ref, i) => functionName(ref, `tool_choice.allowed_tools.tools[${i}]`));
  return { type: 'allowed', mode, names };
}

export function decodeToolChoice(choice: unknown): IRToolChoice | undefined {
  return decodeToolChoiceWith(choice, {
    functionName: (named) => functionName(named, 'tool_choice'),
    allowedTools: decodeAllowed,
  });
}

export function encodeTools(tools: IRTool[]): JsonObject[] {
  return tools.map((tool) => {
    const fn: JsonObject = { name: tool.name };
    if (tool.description !== undefined) fn['description'] = tool.description;
    if (tool.parameters !== undefined) fn['parameters'] = tool.parameters;
    if (tool.strict !== undefined) fn['strict'] = tool.strict;
    return { type: 'function', function: fn };
  });
}

export function encodeToolChoice(choice: IRToolChoice): unknown {
  return encodeToolChoiceWith(choice, {
    functionRef: (name) => ({ type: 'function', function: { name } }),
    allowedTools: (mode, tools) => ({ type: 'allowed_tools', allowed_tools: { mode, tools } }),
  });
}
