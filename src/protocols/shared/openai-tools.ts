// Tool lists and tool_choice as both OpenAI APIs accept them. The validation and the wording of the 400s
// are one; only where a function's fields sit differs (Chat nests them under `function`, Responses keeps
// them flat), so each codec passes in how to read and write its own shape.
import { CodecError } from '../codec.ts';
import type { IRTool, IRToolChoice } from '../ir.ts';
import { isRecord } from './json.ts';
import type { JsonObject } from './json.ts';

/** `tools` → IR tools; every entry must be a function tool, which `read` turns into an IRTool. */
export function decodeFunctionTools(tools: unknown, read: (tool: JsonObject, path: string) => IRTool): IRTool[] | undefined {
  if (tools === undefined || tools === null) return undefined;
  if (!Array.isArray(tools)) throw new CodecError("'tools' must be an array", 'tools');
  return tools.map((tool: unknown, i) => {
    const path = `tools[${i}]`;
    if (!isRecord(tool)) throw new CodecError(`'${path}' must be an object`, path);
    if (tool['type'] !== 'function') {
      throw new CodecError(`Tool type '${String(tool['type'])}' cannot be translated to another provider; only function tools can`, `${path}.type`);
    }
    return read(tool, path);
  });
}

/** A function definition's name, description, parameters and strict flag; `path` is where `fn` sits. */
export function functionDefinition(fn: JsonObject, path: string): IRTool {
  if (typeof fn['name'] !== 'string' || fn['name'] === '') throw new CodecError(`'${path}.name' is required`, `${path}.name`);
  const out: IRTool = { name: fn['name'] };
  if (typeof fn['description'] === 'string') out.description = fn['description'];
  if (fn['parameters'] !== undefined && fn['parameters'] !== null) {
    if (!isRecord(fn['parameters'])) throw new CodecError(`'${path}.parameters' must be an object`, `${path}.parameters`);
    out.parameters = fn['parameters'];
  }
  if (typeof fn['strict'] === 'boolean') out.strict = fn['strict'];
  return out;
}

/** How a codec reads the two object forms of tool_choice. */
export interface ToolChoiceShape {
  /** `{type: 'function', …}` → the function's name. */
  functionName(choice: JsonObject): string;
  /** `{type: 'allowed_tools', …}` → the allowed subset. */
  allowedTools(choice: JsonObject): IRToolChoice;
}

/** `tool_choice`: a mode string, or an object read through `shape`; hosted-tool choices cannot be carried. */
export function decodeToolChoiceWith(choice: unknown, shape: ToolChoiceShape): IRToolChoice | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (choice === 'auto' || choice === 'none' || choice === 'required') return { type: choice };
  if (!isRecord(choice)) throw new CodecError("'tool_choice' must be 'auto', 'none', 'required' or an object", 'tool_choice');
  if (choice['type'] === 'function') return { type: 'tool', name: shape.functionName(choice) };
  if (choice['type'] === 'allowed_tools') return shape.allowedTools(choice);
  throw new CodecError(`tool_choice type '${String(choice['type'])}' cannot be translated to another provider`, 'tool_choice.type');
}

/** How a codec writes tool_choice objects: a reference to one function, and the allowed_tools wrapper. */
export interface ToolChoiceWriter {
  functionRef(name: string): JsonObject;
  allowedTools(mode: 'auto' | 'required', tools: JsonObject[]): JsonObject;
}

/** IR tool choice → `tool_choice`: modes are plain strings in both APIs; objects are written through `writer`. */
export function encodeToolChoiceWith(choice: IRToolChoice, writer: ToolChoiceWriter): unknown {
  switch (choice.type) {
    case 'auto':
    case 'none':
    case 'required':
      return choice.type;
    case 'tool':
      return writer.functionRef(choice.name);
    case 'allowed':
      return writer.allowedTools(choice.mode, choice.names.map((name) => writer.functionRef(name)));
  }
}
