// IR → Gemini generateContent body, camelCase (protocols.md §4.2, §8.5–§8.11). The model lives in the URL.
import type { RequestEncodeContext } from '../codec.ts';
import type { IREffort, IRReasoningConfig, IRRequest, IRResponseFormat, IRToolChoice } from '../ir.ts';
import { encodeContents } from './request-encode-contents.ts';
import { pushUnique } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';

/** Effort → thinkingBudget (protocols.md §8.11 heuristic; xhigh/max capped at Gemini's largest budget). */
export const EFFORT_BUDGET: Record<Exclude<IREffort, 'none'>, number> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 24576,
  xhigh: 32768,
  max: 32768,
};

export function encodeGeminiRequest(request: IRRequest, ctx: RequestEncodeContext): JsonObject {
  const dropped = ctx.dropped;
  const body: JsonObject = { contents: encodeContents(request.messages, dropped) };
  if (request.system !== undefined && request.system !== '') body.systemInstruction = { parts: [{ text: request.system }] };
  const declarations = (request.tools ?? []).map((tool) => {
    const declaration: JsonObject = { name: tool.name };
    if (tool.description !== undefined) declaration.description = tool.description;
    if (tool.parameters !== undefined) declaration.parametersJsonSchema = tool.parameters;
    if (tool.strict === true) pushUnique(dropped, 'tools.strict');
    return declaration;
  });
  if (declarations.length > 0) {
    body.tools = [{ functionDeclarations: declarations }];
    if (request.toolChoice !== undefined) body.toolConfig = { functionCallingConfig: encodeToolChoice(request.toolChoice) };
  }
  if (request.parallelToolCalls === false) pushUnique(dropped, 'parallel_tool_calls');
  if (request.user !== undefined) pushUnique(dropped, 'user');
  const generationConfig = encodeGenerationConfig(request);
  if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
  return body;
}

function encodeToolChoice(choice: IRToolChoice): JsonObject {
  switch (choice.type) {
    case 'auto':
      return { mode: 'AUTO' };
    case 'none':
      return { mode: 'NONE' };
    case 'required':
      return { mode: 'ANY' };
    case 'tool':
      return { mode: 'ANY', allowedFunctionNames: [choice.name] };
    case 'allowed':
      return { mode: choice.mode === 'required' ? 'ANY' : 'AUTO', allowedFunctionNames: choice.names };
  }
}

function encodeGenerationConfig(request: IRRequest): JsonObject {
  const config: JsonObject = {};
  const set = (key: string, value: unknown): void => {
    if (value !== undefined) config[key] = value;
  };
  set('temperature', request.temperature);
  set('topP', request.topP);
  set('topK', request.topK);
  set('maxOutputTokens', request.maxTokens);
  if (request.stop !== undefined && request.stop.length > 0) config.stopSequences = request.stop;
  set('candidateCount', request.n);
  set('seed', request.seed);
  set('presencePenalty', request.presencePenalty);
  set('frequencyPenalty', request.frequencyPenalty);
  Object.assign(config, encodeResponseFormat(request.responseFormat));
  set('thinkingConfig', encodeThinkingConfig(request.reasoning));
  return config;
}

function encodeResponseFormat(format: IRResponseFormat | undefined): JsonObject {
  if (format === undefined || format.type === 'text') return {};
  if (format.type === 'json_object') return { responseMimeType: 'application/json' };
  return { responseMimeType: 'application/json', responseJsonSchema: format.schema };
}

/** enabled:false or effort none → budget 0; explicit budget wins; effort → table; otherwise dynamic (-1). */
function encodeThinkingConfig(reasoning: IRReasoningConfig | undefined): JsonObject | undefined {
  if (reasoning === undefined) return undefined;
  if (!reasoning.enabled || reasoning.effort === 'none') return { thinkingBudget: 0 };
  const effortBudget = reasoning.effort === undefined ? undefined : EFFORT_BUDGET[reasoning.effort];
  const config: JsonObject = { thinkingBudget: reasoning.budgetTokens ?? effortBudget ?? -1 };
  if (reasoning.includeThoughts !== undefined) config.includeThoughts = reasoning.includeThoughts;
  return config;
}
