// Chat tool definitions and tool_choice ⇄ IR (protocols.md §1.1, §8.5, §8.6). Tools nest under `function`.
import { CodecError } from '../codec.ts';
import type { IRTool, IRToolChoice } from '../ir.ts';
import { isObject } from './util.ts';
import type { JsonObject } from './util.ts';

function decodeTool(tool: unknown, path: string): IRTool {
  if (!isObject(tool)) throw new CodecError(`'${path}' must be an object`, path);
  if (tool['type'] !== 'function') {
    throw new CodecError(`Tool type '${String(tool['type'])}' cannot be translated to another provider; only function tools can`, `${path}.type`);
  }
  const fn = tool['function'];
  if (!isObject(fn) || typeof fn['name'] !== 'string' || fn['name'] === '') {
    throw new CodecError(`'${path}.function.name' is required`, `${path}.function.name`);
  }
  const out: IRTool = { name: fn['name'] };
  if (typeof fn['description'] === 'string') out.description = fn['description'];
  if (fn['parameters'] !== undefined && fn['parameters'] !== null) {
    if (!isObject(fn['parameters'])) throw new CodecError(`'${path}.function.parameters' must be an object`, `${path}.function.parameters`);
    out.parameters = fn['parameters'];
  }
  if (typeof fn['strict'] === 'boolean') out.strict = fn['strict'];
  return out;
}

export function decodeTools(tools: unknown): IRTool[] | undefined {
  if (tools === undefined || tools === null) return undefined;
  if (!Array.isArray(tools)) throw new CodecError("'tools' must be an array", 'tools');
  return tools.map((tool, i) => decodeTool(tool, `tools[${i}]`));
}

function functionName(ref: unknown, path: string): string {
  const fn = isObject(ref) ? ref['function'] : undefined;
  if (!isObject(fn) || typeof fn['name'] !== 'string') throw new CodecError(`'${path}.function.name' is required`, `${path}.function.name`);
  return fn['name'];
}

function decodeAllowed(choice: JsonObject): IRToolChoice {
  const allowed = choice['allowed_tools'];
  if (!isObject(allowed) || !Array.isArray(allowed['tools'])) {
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
  if (choice === undefined || choice === null) return undefined;
  if (choice === 'auto' || choice === 'none' || choice === 'required') return { type: choice };
  if (!isObject(choice)) throw new CodecError("'tool_choice' must be 'auto', 'none', 'required' or an object", 'tool_choice');
  if (choice['type'] === 'function') return { type: 'tool', name: functionName(choice, 'tool_choice') };
  if (choice['type'] === 'allowed_tools') return decodeAllowed(choice);
  throw new CodecError(`tool_choice type '${String(choice['type'])}' cannot be translated to another provider`, 'tool_choice.type');
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
  switch (choice.type) {
    case 'auto':
    case 'none':
    case 'required':
      return choice.type;
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
    case 'allowed':
      return {
        type: 'allowed_tools',
        allowed_tools: { mode: choice.mode, tools: choice.names.map((name) => ({ type: 'function', function: { name } })) },
      };
  }
}
