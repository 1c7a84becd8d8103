// Responses tool definitions (flat) and tool_choice ⇄ IR (protocols.md §2.3, §8.5, §8.6). Hosted tools
// (web_search, file_search, code_interpreter, mcp, custom, …) have no equivalent at other providers.
import { CodecError } from '../codec.ts';
import type { IRTool, IRToolChoice } from '../ir.ts';
import { isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';
import { decodeFunctionTools, decodeToolChoiceWith, encodeToolChoiceWith, functionDefinition } from '../shared/openai-tools.ts';

/** Responses function tools are flat: the definition fields sit on the tool itself. */
export function decodeTools(tools: unknown): IRTool[] | undefined {
  return decodeFunctionTools(tools, functionDefinition);
}

function decodeAllowed(choice: JsonObject): IRToolChoice {
  const mode = choice['mode'];
  if (mode !== 'auto' && mode !== 'required') throw new CodecError("'tool_choice.mode' must be 'auto' or 'required'", 'tool_choice.mode');
  if (!Array.isArray(choice['tools'])) throw new CodecError("'tool_choice.tools' must be an array", 'tool_choice.tools');
  const names = choice['tools'].map((ref, i) => {
    if (!isRecord(ref) || ref['type'] !== 'function' || typeof ref['name'] !== 'string') {
      throw new CodecError('Only function tools can be listed in allowed_tools', `tool_choice.tools[${i}]`);
    }
    return ref['name'];
  });
  return { type: 'allowed', mode, names };
}

function functionName(choice: JsonObject): string {
  if (typeof choice['name'] !== 'string') throw new CodecError("'tool_choice.name' is required", 'tool_choice.name');
  return choice['name'];
}

export function decodeToolChoice(choice: unknown): IRToolChoice | undefined {
  return decodeToolChoiceWith(choice, { functionName, allowedTools: decodeAllowed });
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
  return encodeToolChoiceWith(choice, {
    functionRef: (name) => ({ type: 'function', name }),
    allowedTools: (mode, tools) => ({ type: 'allowed_tools', mode, tools }),
  });
}
