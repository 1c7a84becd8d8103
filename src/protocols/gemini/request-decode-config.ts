// Gemini tools, toolConfig and generationConfig → IR (protocols.md §4.2, §4.4).
import { CodecError } from '../codec.ts';
import type { IREffort, IRReasoningConfig, IRRequest, IRResponseFormat, IRTool, IRToolChoice } from '../ir.ts';
import { geminiSchemaToJsonSchema } from './schema.ts';
import { expectRecord, fieldLabel, pushUnique } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';
import { arrayField, booleanOf, field, numberOf, recordField, requireStringOf, stringArrayOf, stringOf } from './util.ts';

export function decodeTools(raw: unknown[], dropped: string[]): IRTool[] {
  const hosted: string[] = [];
  const tools: IRTool[] = [];
  raw.forEach((item, i) => {
    const tool = expectRecord(item, `tools[${i}]`);
    for (const key of Object.keys(tool)) {
      if (key !== 'functionDeclarations' && key !== 'function_declarations') hosted.push(key);
    }
    const declarations = arrayField(tool, 'functionDeclarations', `tools[${i}].functionDeclarations`) ?? [];
    declarations.forEach((decl, j) => tools.push(decodeDeclaration(decl, `tools[${i}].functionDeclarations[${j}]`, dropped)));
  });
  if (hosted.length > 0) {
    throw new CodecError(`built-in Gemini tools cannot be translated to other providers: ${hosted.join(', ')}`, 'tools');
  }
  return tools;
}

function decodeDeclaration(raw: unknown, path: string, dropped: string[]): IRTool {
  const decl = expectRecord(raw, path);
  const tool: IRTool = { name: requireStringOf(decl, 'name', `${path}.name`) };
  const description = stringOf(decl, 'description', `${path}.description`);
  if (description !== undefined) tool.description = description;
  const jsonSchema = recordField(decl, 'parametersJsonSchema', `${path}.parametersJsonSchema`);
  const schema = recordField(decl, 'parameters', `${path}.parameters`);
  if (jsonSchema !== undefined) tool.parameters = jsonSchema;
  else if (schema !== undefined) tool.parameters = geminiSchemaToJsonSchema(schema);
  for (const key of ['response', 'responseJsonSchema', 'behavior']) {
    if (field(decl, key) !== undefined) pushUnique(dropped, `functionDeclarations.${key}`);
  }
  return tool;
}

export function decodeToolConfig(raw: JsonObject): IRToolChoice | undefined {
  const config = recordField(raw, 'functionCallingConfig', 'toolConfig.functionCallingConfig');
  if (config === undefined) return undefined;
  const mode = (stringOf(config, 'mode', 'toolConfig.functionCallingConfig.mode') ?? 'AUTO').toUpperCase();
  const names = stringArrayOf(config, 'allowedFunctionNames', 'toolConfig.functionCallingConfig.allowedFunctionNames');
  switch (mode) {
    case 'NONE':
      return { type: 'none' };
    case 'ANY':
      if (names === undefined || names.length === 0) return { type: 'required' };
      if (names.length === 1 && names[0] !== undefined) return { type: 'tool', name: names[0] };
      return { type: 'allowed', mode: 'required', names };
    case 'AUTO':
    case 'VALIDATED':
    case 'MODE_UNSPECIFIED':
      return names === undefined || names.length === 0 ? { type: 'auto' } : { type: 'allowed', mode: 'auto', names };
    default:
      throw new CodecError(`toolConfig.functionCallingConfig.mode "${mode}" is not supported`, 'toolConfig.functionCallingConfig.mode');
  }
}

/** generationConfig keys with no IR field. */
const GENERATION_DROPPED = ['responseModalities', 'imageConfig', 'speechConfig', 'mediaResolution', 'responseLogprobs', 'logprobs', 'enableEnhancedCivicAnswers', 'routingConfig', 'audioTimestamp'];

export function decodeGenerationConfig(request: IRRequest, config: JsonObject, dropped: string[]): void {
  const path = (key: string): string => `generationConfig.${key}`;
  const assign = <K extends keyof IRRequest>(key: K, value: IRRequest[K] | undefined): void => {
    if (value !== undefined) request[key] = value;
  };
  assign('temperature', numberOf(config, 'temperature', path('temperature')));
  assign('topP', numberOf(config, 'topP', path('topP')));
  assign('topK', numberOf(config, 'topK', path('topK')));
  assign('maxTokens', numberOf(config, 'maxOutputTokens', path('maxOutputTokens')));
  assign('stop', stringArrayOf(config, 'stopSequences', path('stopSequences')));
  assign('n', numberOf(config, 'candidateCount', path('candidateCount')));
  assign('seed', numberOf(config, 'seed', path('seed')));
  assign('presencePenalty', numberOf(config, 'presencePenalty', path('presencePenalty')));
  assign('frequencyPenalty', numberOf(config, 'frequencyPenalty', path('frequencyPenalty')));
  assign('responseFormat', decodeResponseFormat(config, dropped));
  const thinking = recordField(config, 'thinkingConfig', path('thinkingConfig'));
  if (thinking !== undefined) assign('reasoning', decodeThinkingConfig(thinking));
  for (const key of GENERATION_DROPPED) {
    if (field(config, key) !== undefined) pushUnique(dropped, path(key));
  }
}

function decodeResponseFormat(config: JsonObject, dropped: string[]): IRResponseFormat | undefined {
  const mime = stringOf(config, 'responseMimeType', 'generationConfig.responseMimeType');
  const jsonSchema = recordField(config, 'responseJsonSchema', 'generationConfig.responseJsonSchema');
  const schema = recordField(config, 'responseSchema', 'generationConfig.responseSchema');
  if (mime === undefined || mime === 'text/plain') return undefined;
  if (mime !== 'application/json') {
    pushUnique(dropped, fieldLabel(`generationConfig.responseMimeType=${mime}`));
    return undefined;
  }
  if (jsonSchema !== undefined) return { type: 'json_schema', schema: jsonSchema };
  if (schema !== undefined) return { type: 'json_schema', schema: geminiSchemaToJsonSchema(schema) };
  return { type: 'json_object' };
}

const LEVEL_EFFORT: Record<string, IREffort> = { MINIMAL: 'minimal', LOW: 'low', MEDIUM: 'medium', HIGH: 'high' };

function decodeThinkingConfig(config: JsonObject): IRReasoningConfig {
  const path = 'generationConfig.thinkingConfig';
  const budget = numberOf(config, 'thinkingBudget', `${path}.thinkingBudget`);
  const level = stringOf(config, 'thinkingLevel', `${path}.thinkingLevel`);
  const includeThoughts = booleanOf(config, 'includeThoughts', `${path}.includeThoughts`);
  const reasoning: IRReasoningConfig = { enabled: budget !== 0 };
  if (budget !== undefined && budget > 0) reasoning.budgetTokens = budget;
  if (level !== undefined) {
    const effort = LEVEL_EFFORT[level.toUpperCase()];
    if (effort === undefined) throw new CodecError(`${path}.thinkingLevel "${level}" is not supported`, `${path}.thinkingLevel`);
    reasoning.effort = effort;
  }
  if (includeThoughts !== undefined) reasoning.includeThoughts = includeThoughts;
  return reasoning;
}
