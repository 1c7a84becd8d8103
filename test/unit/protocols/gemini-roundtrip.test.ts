// Property-style round trips for the Gemini codec over seeded random IR:
//   request:  IR → encodeRequest → decodeRequest ≈ IR
//   response: IR → encodeResponse → decodeResponse ≈ IR
//   stream:   IR events → encoder → SSE text / JSON array (grammar-checked) → decoder ≈ IR
// "≈" is `expected*` below: the IR with exactly the losses protocols.md documents for Gemini applied.
import { expect } from 'chai';
import type { RequestEncodeContext, ResponseEncodeContext } from '../../../src/protocols/codec.ts';
import { GEMINI_EFFORT_BUDGET, createGeminiStreamEncoder, geminiCodec } from '../../../src/protocols/gemini/index.ts';
import type { IRBlock, IRReasoningConfig, IRRequest, IRResponse, IRStopReason, IRToolChoice, IRUsage } from '../../../src/protocols/ir.ts';
import { checkGeminiJsonArrayStream, checkGeminiStream } from '../../helpers/grammar/gemini.ts';
import { parseSse } from '../../helpers/grammar/sse.ts';
import { canonicalArgs, mergeMessages } from '../../helpers/ir-expect.ts';
import { Rng, collectStream, genRequest, genResponse, responseToEvents } from '../../helpers/ir-gen.ts';

const SEEDS = 300;
const ctx: ResponseEncodeContext = { request: { model: 'a', messages: [], stream: true }, clientModel: 'client-model' };

function canonicalOutput(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return text;
  try {
    return JSON.stringify(JSON.parse(trimmed));
  } catch {
    return text;
  }
}

function expectedBlock(block: IRBlock, names: Map<string, string>): IRBlock[] {
  switch (block.type) {
    case 'text':
      return block.text === '' ? [] : [block];
    case 'image':
      return [{ type: 'image', source: block.source }];
    case 'document':
      return [{ type: 'document', mediaType: block.mediaType, data: block.data }];
    case 'tool_call': {
      const out: IRBlock = { type: 'tool_call', id: block.id, name: block.name, arguments: canonicalArgs(block.arguments) };
      if (block.signature?.vendor === 'gemini') out.signature = block.signature;
      return [out];
    }
    case 'tool_result': {
      const text = block.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
      const out: IRBlock = { type: 'tool_result', callId: block.callId, name: block.name ?? names.get(block.callId) ?? '', content: [{ type: 'text', text: block.isError === true ? text : canonicalOutput(text) }] };
      if (block.isError === true) out.isError = true;
      return [out];
    }
    case 'reasoning':
      return block.redacted === undefined && block.signature?.vendor === 'gemini' ? [{ type: 'reasoning', text: block.text, signature: block.signature }] : [];
  }
}

function expectedChoice(choice: IRToolChoice): IRToolChoice {
  if (choice.type !== 'allowed') return choice;
  if (choice.names.length === 0) return { type: choice.mode === 'required' ? 'required' : 'auto' };
  if (choice.mode === 'required' && choice.names.length === 1) return { type: 'tool', name: choice.names[0]! };
  return choice;
}

function expectedReasoning(reasoning: IRReasoningConfig): IRReasoningConfig {
  if (!reasoning.enabled || reasoning.effort === 'none') return { enabled: false };
  const budget = reasoning.budgetTokens ?? (reasoning.effort === undefined ? undefined : GEMINI_EFFORT_BUDGET[reasoning.effort]) ?? -1;
  const out: IRReasoningConfig = { enabled: true };
  if (budget > 0) out.budgetTokens = budget;
  if (reasoning.includeThoughts !== undefined) out.includeThoughts = reasoning.includeThoughts;
  return out;
}

function expectedRequest(ir: IRRequest): IRRequest {
  const names = new Map(ir.messages.flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_call' ? [[b.id, b.name] as const] : []))));
  const out: IRRequest = { model: ir.model, messages: mergeMessages(ir.messages, (b) => expectedBlock(b, names)), stream: ir.stream };
  if (ir.system !== undefined && ir.system !== '') out.system = ir.system;
  if (ir.tools !== undefined && ir.tools.length > 0) {
    out.tools = ir.tools.map(({ strict: _strict, ...tool }) => tool);
    if (ir.toolChoice !== undefined) out.toolChoice = expectedChoice(ir.toolChoice);
  }
  const copy = ['temperature', 'topP', 'topK', 'maxTokens', 'n', 'seed', 'presencePenalty', 'frequencyPenalty'] as const;
  for (const key of copy) if (ir[key] !== undefined) out[key] = ir[key];
  if (ir.stop !== undefined && ir.stop.length > 0) out.stop = ir.stop;
  const format = ir.responseFormat;
  if (format?.type === 'json_object') out.responseFormat = format;
  if (format?.type === 'json_schema') out.responseFormat = { type: 'json_schema', schema: format.schema };
  if (ir.reasoning !== undefined) out.reasoning = expectedReasoning(ir.reasoning);
  return out;
}

function expectedStop(reason: IRStopReason, content: IRBlock[]): IRStopReason {
  if (reason === 'max_tokens' || reason === 'context_window_exceeded') return 'max_tokens';
  if (reason === 'content_filter') return 'content_filter';
  return content.some((b) => b.type === 'tool_call') ? 'tool_use' : 'end_turn';
}

function expectedUsage(usage: IRUsage): IRUsage {
  const out: IRUsage = { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens };
  if (usage.reasoningTokens !== undefined && usage.reasoningTokens > 0) out.reasoningTokens = usage.reasoningTokens;
  if (usage.cacheReadTokens !== undefined && usage.cacheReadTokens > 0) out.cacheReadTokens = usage.cacheReadTokens;
  return out;
}

function expectedResponse(ir: IRResponse): Omit<IRResponse, 'created'> {
  const content = ir.content.flatMap((block): IRBlock[] => {
    if (block.type === 'reasoning') {
      if (block.redacted !== undefined) return [];
      return [block.signature?.vendor === 'gemini' ? { type: 'reasoning', text: block.text, signature: block.signature } : { type: 'reasoning', text: block.text }];
    }
    return expectedBlock(block, new Map());
  });
  const out: Omit<IRResponse, 'created'> = { id: ir.id, model: 'client-model', content, stopReason: expectedStop(ir.stopReason, content) };
  if (ir.usage !== undefined) out.usage = expectedUsage(ir.usage);
  return out;
}

function streamOf(seed: number, format: 'sse' | 'json-array'): { ir: IRResponse; text: string } {
  const rng = new Rng(seed);
  const ir = genResponse(rng);
  const encoder = createGeminiStreamEncoder(ctx, format);
  return { ir, text: responseToEvents(rng, ir).map((event) => encoder.push(event)).join('') + encoder.end() };
}

function compareStream(ir: IRResponse, frames: Array<{ data: string }>, label: string): void {
  const decoder = geminiCodec.createStreamDecoder();
  const collected = collectStream([...frames.flatMap((frame) => decoder.push(frame)), ...decoder.end()]);
  const expected = expectedResponse(ir);
  expect(collected.error, label).to.equal(undefined);
  expect({ id: collected.id, content: collected.content, stopReason: collected.stopReason, usage: collected.usage }, label).to.deep.equal({
    id: expected.id,
    content: expected.content,
    stopReason: expected.stopReason,
    usage: expected.usage ?? {},
  });
}

describe('gemini codec: property round trips', () => {
  it(`request: IR → Gemini body → IR keeps everything but the documented losses (${SEEDS} seeds)`, () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const ir = genRequest(new Rng(seed));
      const encodeCtx: RequestEncodeContext = { upstreamModel: 'ignored', defaultMaxTokens: 4096, dropped: [] };
      const body = JSON.parse(JSON.stringify(geminiCodec.encodeRequest(ir, encodeCtx))) as Record<string, unknown>;
      expect(body, `seed ${seed}`).to.not.have.property('model');
      const decoded = geminiCodec.decodeRequest(body, { model: ir.model, stream: ir.stream });
      expect(decoded, `seed ${seed}`).to.deep.equal(JSON.parse(JSON.stringify(expectedRequest(ir))));
    }
  });

  it(`response: IR → GenerateContentResponse → IR (${SEEDS} seeds)`, () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const ir = genResponse(new Rng(seed));
      const { created: _created, ...decoded } = geminiCodec.decodeResponse(JSON.parse(JSON.stringify(geminiCodec.encodeResponse(ir, ctx))));
      expect(decoded, `seed ${seed}`).to.deep.equal(expectedResponse(ir));
    }
  });

  it(`stream: IR events → Gemini SSE (grammar-valid) → IR events (${SEEDS} seeds)`, () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const { ir, text } = streamOf(seed, 'sse');
      expect(checkGeminiStream(text), `seed ${seed}`).to.deep.equal([]);
      compareStream(ir, parseSse(text), `seed ${seed}`);
    }
  });

  it(`stream: IR events → Gemini JSON-array stream (grammar-valid) → IR events (${SEEDS} seeds)`, () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const { ir, text } = streamOf(seed, 'json-array');
      expect(checkGeminiJsonArrayStream(text), `seed ${seed}`).to.deep.equal([]);
      compareStream(ir, (JSON.parse(text) as unknown[]).map((chunk) => ({ data: JSON.stringify(chunk) })), `seed ${seed}`);
    }
  });
});
