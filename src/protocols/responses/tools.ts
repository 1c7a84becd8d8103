// Responses tool definitions (flat) and tool_choice ⇄ IR (protocols.md §2.3, §8.5, §8.6). Hosted tools
// (web_search, file_search, code_interpreter, mcp, custom, …) have no equivalent at other providers.
import { CodecError } from '../codec.ts';
import type { IRTool, IRToolChoice } from '../ir.ts';
import { isObject } from './util.ts';
import type { JsonObject } from './util.ts';

function decodeTool(tool: unknown, path: string): IRTool {
  if (!isObject(tool)) throw new CodecError(`'${path}' must be an object`, path);
  if (tool['type'] !== 'function') {
    throw new CodecError(`Tool type '${String(tool['type'])}' cannot be translated to another provider; only function tools can`, `${path}.type`);
  }
  if (typeof tool['name'] !== 'string' || tool['name'] === '') throw new CodecError(`'${path}.name' is required`, `${path}.name`);
  const out: IRTool = { name: tool['name'] };
  if (typeof tool['description'] === 'string') out.description = tool['description'];
  if (tool['parameters'] !== undefined && tool['parameters'] !== null) {
    if (!isObject(tool['parameters'])) throw new CodecError(`'${path}.parameters' must be an object`, `${path}.parameters`);
    out.parameters = tool['parameters'];
  }
  if (typeof tool['strict'] === 'boolean') out.strict = tool['strict'];
  return out;
}

export function decodeTools(tools: unknown): IRTool[] | undefined {
  if (tools === undefined || tools === null) return undefined;
  if (!Array.isArray(tools)) throw new CodecError("'tools' must be an array", 'tools');
  return tools.map((tool, i) => decodeTool(tool, `tools[${i}]`));
}

function decodeAllowed(choice: JsonObject): IRToolChoice {
  const mode = choice['mode'];
  if (mode !== 'auto' && mode !== 'required') throw new CodecError("'tool_choice.mode' must be 'auto' or 'required'", 'tool_choice.mode');
  if (!Array.isArray(choice['tools'])) throw new CodecError("'tool_choice.tools' must be an array", 'tool_choice.tools');
  const names = choice['tools'].map((ref, i) => {
    if (!isObject(ref) || ref['type'] !== 'function' || typeof ref['name'] !== 'string') {
      throw new CodecError('Only function tools can be listed in allowed_tools', `tool_choice.tools[${i}]`);
    }
    return ref['name'];
  });
  return { type: 'allowed', mode, names };
}

export function decodeToolChoice(choice: unknown): IRToolChoice | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (choice === 'auto' || choice === 'none' || choice === 'required') return { type: choice };
  if (!isObject(choice)) throw new CodecError("'tool_choice' must be 'auto', 'none', 'required' or an object", 'tool_choice');
  if (choice['type'] === 'function') {
    if (typeof choice['name'] !== 'string') throw new CodecError("'tool_choice.name' is required", 'tool_choice.name');
    return { type: 'tool', name: choice['name'] };
  }
  if (choice['type'] === 'allowed_tools') return decodeAllowed(choice);
  throw new CodecError(`tool_choice type '${String(choice['type'])}' cannot be translated to another provider`, 'tool_choice.type');
}

/**
 * IR tools → flat function tools. `strict` defaults to TRUE in the Responses API, which rejects ordinary
 * schemas, so an upstream request states `false` when the IR leaves it open; echoes use null.
 */
export function encodeTools(tools: IRTool[], unsetStrict: false | null): JsonObject[] {
  return tools.map((tool) => {
    const out: JsonObject = { type: 'function', name: tool.name };
    if (tool.description !== undefined) out['description'] = tool.description;
    out['parameters'] = tool.parameters ?? null;
    out['strict'] = tool.strict ?? unsetStrict;
    return out;
  });
}

export function encodeToolChoice(choice: IRToolChoice): unknown {
  switch (choice.type) {
    case 'auto':
    case 'none':
    case 'required':
      return choice.type;
    case 'tool':
      return { type: 'function', name: choice.name };
    case 'allowed':
      return { type: 'allowed_tools', mode: choice.mode, tools: choice.names.map((name) => ({ type: 'function', name })) };
  }
}
