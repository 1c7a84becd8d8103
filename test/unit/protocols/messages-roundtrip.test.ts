// Property-style round trips for the Anthropic Messages codec over seeded random IR:
//   request:  IR → encodeRequest → decodeRequest ≈ IR
//   response: IR → encodeResponse → decodeResponse ≈ IR
//   stream:   IR events → encoder → SSE text (grammar-checked) → decoder ≈ IR
// "≈" is `expected*` below: the IR with exactly the losses protocols.md documents for Anthropic applied.
import { expect } from 'chai';
import type { RequestEncodeContext, ResponseEncodeContext } from '../../../src/protocols/codec.ts';
import type { IRBlock, IRRequest, IRResponse, IRTool, IRToolChoice, IRUsage } from '../../../src/protocols/ir.ts';
import { ANTHROPIC_EFFORT_BUDGET, messagesCodec } from '../../../src/protocols/messages/index.ts';
import { checkMessagesStream } from '../../helpers/grammar/messages.ts';
import { parseSse } from '../../helpers/grammar/sse.ts';
import { Rng, collectStream, genRequest, genResponse, responseToEvents } from '../../helpers/ir-gen.ts';
import { canonicalArgs, mergeMessages } from '../../helpers/ir-expect.ts';

const SEEDS = 300;
const DEFAULT_MAX = 4096;

function expectedBlock(block: IRBlock): IRBlock[] {
  switch (block.type) {
    case 'text':
      return block.text === '' ? [] : [block];
    case 'image':
      return [{ type: 'image', source: block.source }];
    case 'document':
      return [block];
    case 'tool_call':
      return [{ type: 'tool_call', id: block.id, name: block.name, arguments: canonicalArgs(block.arguments) }];
    case 'tool_result': {
      const out: IRBlock = { type: 'tool_result', callId: block.callId, content: block.content.filter((c) => c.type !== 'text' || c.text !== '') };
      if (block.isError === true) out.isError = true;
      return [out];
    }
    case 'reasoning':
      if (block.redacted !== undefined) return [{ type: 'reasoning', text: '', redacted: block.redacted }];
      return block.signature?.vendor === 'anthropic' ? [{ type: 'reasoning', text: block.text, signature: block.signature }] : [];
  }
}

function expectedTool(tool: IRTool): IRTool {
  const out: IRTool = { name: tool.name };
  if (tool.description !== undefined) out.description = tool.description;
  const p = tool.parameters;
  out.parameters = p === undefined || Object.keys(p).length === 0 ? { type: 'object', properties: {} } : p.type === undefined ? { type: 'object', ...p } : p;
  return out;
}

function expectedChoice(choice: IRToolChoice | undefined, noParallel: boolean): IRToolChoice | undefined {
  if (choice === undefined) return noParallel ? { type: 'auto' } : undefined;
  if (choice.type === 'allowed') return { type: choice.mode === 'required' ? 'required' : 'auto' };
  return choice;
}

function thinkingBudget(ir: IRRequest): number | undefined {
  const r = ir.reasoning;
  if (r === undefined || !r.enabled || r.effort === 'none') return undefined;
  return Math.max(1024, Math.floor(r.budgetTokens ?? (r.effort === undefined ? undefined : ANTHROPIC_EFFORT_BUDGET[r.effort]) ?? 8192));
}

function expectedRequest(ir: IRRequest): IRRequest {
  const budget = thinkingBudget(ir);
  const max = ir.maxTokens ?? DEFAULT_MAX;
  const out: IRRequest = { model: ir.model, messages: mergeMessages(ir.messages, expectedBlock), stream: ir.stream };
  out.maxTokens = budget !== undefined && max <= budget ? budget + max : max;
  if (ir.system !== undefined && ir.system !== '') out.system = ir.system;
  const temperature = ir.temperature === undefined ? undefined : Math.min(1, Math.max(0, ir.temperature));
  if (temperature !== undefined && (budget === undefined || temperature === 1)) out.temperature = temperature;
  if (ir.topP !== undefined && (budget === undefined || ir.topP >= 0.95)) out.topP = ir.topP;
  if (ir.topK !== undefined && budget === undefined) out.topK = ir.topK;
  if (ir.stop !== undefined && ir.stop.length > 0) out.stop = ir.stop;
  const choice = ir.toolChoice;
  const tools = (ir.tools ?? []).filter((t) => choice?.type !== 'allowed' || choice.names.includes(t.name));
  if (tools.length > 0) {
    out.tools = tools.map(expectedTool);
    const noParallel = ir.parallelToolCalls === false;
    const mapped = expectedChoice(choice, noParallel);
    if (mapped !== undefined) out.toolChoice = mapped;
    if (noParallel && mapped?.type !== 'none') out.parallelToolCalls = false;
  }
  const format = ir.responseFormat;
  if (format?.type === 'json_object') out.responseFormat = { type: 'json_schema', schema: { type: 'object' } };
  if (format?.type === 'json_schema') out.responseFormat = { type: 'json_schema', schema: format.schema };
  if (budget !== undefined) out.reasoning = { enabled: true, budgetTokens: budget, includeThoughts: true };
  if (ir.user !== undefined) out.user = ir.user;
  return out;
}

function expectedUsage(usage: IRUsage | undefined): IRUsage {
  return { inputTokens: usage?.inputTokens ?? 0, outputTokens: usage?.outputTokens ?? 0, cacheReadTokens: usage?.cacheReadTokens ?? 0, cacheWriteTokens: usage?.cacheWriteTokens ?? 0 };
}

function expectedOutputBlock(block: IRBlock): IRBlock[] {
  if (block.type === 'reasoning' && block.redacted === undefined) {
    return [block.signature?.vendor === 'anthropic' ? { type: 'reasoning', text: block.text, signature: block.signature } : { type: 'reasoning', text: block.text }];
  }
  return block.type === 'text' ? [block] : expectedBlock(block);
}

function expectedResponse(ir: IRResponse, clientModel: string): Omit<IRResponse, 'created'> {
  const out: Omit<IRResponse, 'created'> = {
    id: ir.id.startsWith('msg_') ? ir.id : `msg_${ir.id}`,
    model: clientModel,
    content: ir.content.flatMap(expectedOutputBlock),
    stopReason: ir.stopReason,
    usage: expectedUsage(ir.usage),
  };
  if (ir.stopSequence !== undefined) out.stopSequence = ir.stopSequence;
  return out;
}

describe('messages codec: property round trips', () => {
  it(`request: IR → Anthropic body → IR keeps everything but the documented losses (${SEEDS} seeds)`, () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const ir = genRequest(new Rng(seed));
      ir.n = undefined;
      const ctx: RequestEncodeContext = { upstreamModel: ir.model, defaultMaxTokens: DEFAULT_MAX, dropped: [] };
      const decoded = messagesCodec.decodeRequest(JSON.parse(JSON.stringify(messagesCodec.encodeRequest(ir, ctx))));
      expect(decoded, `seed ${seed}`).to.deep.equal(JSON.parse(JSON.stringify(expectedRequest(ir))));
    }
  });

  it(`response: IR → Anthropic message → IR (${SEEDS} seeds)`, () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const ir = genResponse(new Rng(seed));
      const ctx: ResponseEncodeContext = { request: { model: 'a', messages: [], stream: false }, clientModel: 'client-model' };
      const { created: _created, ...decoded } = messagesCodec.decodeResponse(JSON.parse(JSON.stringify(messagesCodec.encodeResponse(ir, ctx))));
      expect(decoded, `seed ${seed}`).to.deep.equal(expectedResponse(ir, 'client-model'));
    }
  });

  it(`stream: IR events → Anthropic SSE (grammar-valid) → IR events (${SEEDS} seeds)`, () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const rng = new Rng(seed);
      const ir = genResponse(rng);
      const encoder = messagesCodec.createStreamEncoder({ request: { model: 'a', messages: [], stream: true }, clientModel: 'client-model' });
      const text = responseToEvents(rng, ir).map((event) => encoder.push(event)).join('') + encoder.end();
      expect(checkMessagesStream(text), `seed ${seed}`).to.deep.equal([]);
      const decoder = messagesCodec.createStreamDecoder();
      const collected = collectStream([...parseSse(text).flatMap((frame) => decoder.push(frame)), ...decoder.end()]);
      const expected = expectedResponse(ir, 'client-model');
      expect(collected.error, `seed ${seed}`).to.equal(undefined);
      expect({ id: collected.id, content: collected.content, stopReason: collected.stopReason, stopSequence: collected.stopSequence, usage: collected.usage }, `seed ${seed}`).to.deep.equal({
        id: expected.id,
        content: expected.content,
        stopReason: expected.stopReason,
        stopSequence: expected.stopSequence,
        usage: expected.usage,
      });
    }
  });
});
