// Property-style round trips for the Chat Completions codec over seeded random IR (test/helpers/ir-gen.ts):
//   request:  IR → encodeRequest → decodeRequest ≈ IR
//   response: IR → encodeResponse → decodeResponse ≈ IR
//   stream:   IR events → encoder → SSE (grammar-checked) → decoder ≈ IR
// "≈" is the `expected*` model below: the IR with exactly the losses Chat documents applied — reasoning history,
// signatures, tool-result images/error flags, top_k dropped; assistant text joined; tool results first.
import { expect } from 'chai';
import { chatCodec } from '../../../src/protocols/chat/index.ts';
import type { IRBlock, IRMessage, IRRequest, IRResponse, IRStopReason } from '../../../src/protocols/ir.ts';
import { responsesCodec } from '../../../src/protocols/responses/index.ts';
import { checkChatStream } from '../../helpers/grammar/chat.ts';
import { checkResponsesStream } from '../../helpers/grammar/responses.ts';
import { bareToolCall, expectedOpenAIUsage as expectedUsage } from '../../helpers/ir-expect.ts';
import { Rng, collectStream, genRequest, genResponse, responseToEvents } from '../../helpers/ir-gen.ts';
import { decodeStream, encodeCtx, encodeStream } from '../../helpers/codec.ts';
import { fixtureText } from '../../helpers/fixtures.ts';
import { readdirSync } from 'node:fs';

const SEEDS = 300;

const FINISH: Record<IRStopReason, IRStopReason> = {
  end_turn: 'end_turn',
  stop_sequence: 'end_turn',
  pause_turn: 'end_turn',
  max_tokens: 'max_tokens',
  context_window_exceeded: 'max_tokens',
  tool_use: 'tool_use',
  content_filter: 'content_filter',
};

function expectedUser(message: IRMessage): IRMessage {
  const results: IRBlock[] = [];
  const others: IRBlock[] = [];
  for (const block of message.content) {
    if (block.type === 'tool_result') {
      const content = block.content.flatMap((c) => (c.type === 'text' && c.text !== '' ? [c] : []));
      results.push({ type: 'tool_result', callId: block.callId, content });
    } else if (block.type === 'text' || block.type === 'image' || block.type === 'document') {
      others.push(block);
    }
  }
  const content = results.length === 0 && others.length === 0 ? [{ type: 'text' as const, text: '' }] : [...results, ...others];
  return { role: 'user', content };
}

function expectedAssistant(message: IRMessage): IRMessage {
  const text = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  const calls = message.content.flatMap((b) => (b.type === 'tool_call' ? [bareToolCall(b)] : []));
  return { role: 'assistant', content: [...(text === '' ? [] : [{ type: 'text' as const, text }]), ...calls] };
}

function expectedEffort(reasoning: IRRequest['reasoning']): IRRequest['reasoning'] {
  if (!reasoning) return undefined;
  const budget = reasoning.budgetTokens;
  const effort = reasoning.effort ?? (!reasoning.enabled ? undefined : budget === undefined ? 'medium' : budget <= 1024 ? 'minimal' : budget <= 2048 ? 'low' : budget <= 8192 ? 'medium' : 'high');
  return effort === undefined ? undefined : { enabled: effort !== 'none', effort };
}

function expectedRequest(ir: IRRequest): IRRequest {
  const out: IRRequest = { model: ir.model, messages: ir.messages.map((m) => (m.role === 'user' ? expectedUser(m) : expectedAssistant(m))), stream: ir.stream };
  const copy = <K extends keyof IRRequest>(key: K): void => {
    if (ir[key] !== undefined) out[key] = ir[key];
  };
  if (ir.system !== undefined && ir.system !== '') out.system = ir.system;
  if (ir.tools && ir.tools.length > 0) {
    out.tools = ir.tools;
    copy('toolChoice');
    copy('parallelToolCalls');
  }
  for (const key of ['maxTokens', 'temperature', 'topP', 'n', 'seed', 'presencePenalty', 'frequencyPenalty', 'user'] as const) copy(key);
  if (ir.stop && ir.stop.length > 0) out.stop = ir.stop;
  const format = ir.responseFormat;
  if (format) out.responseFormat = format.type === 'json_schema' && format.name === undefined ? { ...format, name: 'response' } : format;
  const reasoning = expectedEffort(ir.reasoning);
  if (reasoning) out.reasoning = reasoning;
  if (ir.stream) out.includeUsage = true;
  return out;
}

function expectedDropped(ir: IRRequest): string[] {
  const blocks = ir.messages.flatMap((m) => m.content);
  const dropped: string[] = [];
  if (blocks.some((b) => b.type === 'reasoning')) dropped.push('reasoning');
  if (blocks.some((b) => b.type === 'tool_result' && b.isError)) dropped.push('tool_result.is_error');
  if (blocks.some((b) => b.type === 'tool_result' && b.content.some((c) => c.type === 'image'))) dropped.push('tool_result.image');
  if (ir.topK !== undefined) dropped.push('top_k');
  return dropped;
}

function expectedStop(response: IRResponse): IRStopReason {
  const stop = FINISH[response.stopReason];
  return stop === 'end_turn' && response.content.some((b) => b.type === 'tool_call') ? 'tool_use' : stop;
}

function expectedContent(content: IRBlock[]): IRBlock[] {
  const reasoning = content.flatMap((b) => (b.type === 'reasoning' && b.text !== '' ? [b.text] : [])).join('\n\n');
  const text = content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  const calls = content.flatMap((b) => (b.type === 'tool_call' ? [bareToolCall(b)] : []));
  return [...(reasoning === '' ? [] : [{ type: 'reasoning' as const, text: reasoning }]), ...(text === '' ? [] : [{ type: 'text' as const, text }]), ...calls];
}

/** Chat streams have no block boundaries for text/reasoning: adjacent ones merge, empty ones vanish. */
function expectedStreamContent(content: IRBlock[]): IRBlock[] {
  const out: IRBlock[] = [];
  for (const block of content) {
    const last = out.at(-1);
    if (block.type === 'tool_call') out.push(bareToolCall(block));
    else if ((block.type === 'text' || block.type === 'reasoning') && block.text !== '') {
      if (last?.type === block.type) last.text += block.text;
      else out.push({ type: block.type, text: block.text });
    }
  }
  return out;
}

describe('chat codec: property round trips', () => {
  it(`request: IR → Chat body → IR (${SEEDS} seeds)`, () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const ir = genRequest(new Rng(seed));
      const dropped: string[] = [];
      const body = chatCodec.encodeRequest(ir, { upstreamModel: ir.model, defaultMaxTokens: 4096, dropped });
      const back = chatCodec.decodeRequest(JSON.parse(JSON.stringify(body)));
      expect(back, `seed ${seed}`).to.deep.equal(expectedRequest(ir));
      expect(dropped, `seed ${seed}`).to.have.members(expectedDropped(ir));
    }
  });

  it(`response: IR → chat.completion → IR (${SEEDS} seeds)`, () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const ir = genResponse(new Rng(seed));
      const body = chatCodec.encodeResponse(ir, encodeCtx({}, 'client-model'));
      const back = chatCodec.decodeResponse(JSON.parse(JSON.stringify(body)));
      const expected: IRResponse = { id: back.id, model: 'client-model', created: ir.created, content: expectedContent(ir.content), stopReason: expectedStop(ir) };
      if (ir.usage) expected.usage = expectedUsage(ir.usage);
      expect(back, `seed ${seed}`).to.deep.equal(expected);
      expect(back.id).to.match(/^chatcmpl-/);
    }
  });

  for (const includeUsage of [true, false]) {
    it(`stream (include_usage ${includeUsage}): IR events → Chat SSE → IR events (${SEEDS} seeds)`, () => {
      for (let seed = 1; seed <= SEEDS; seed++) {
        const rng = new Rng(seed);
        const response = genResponse(rng);
        const events = responseToEvents(rng, response);
        const text = encodeStream(chatCodec, events, encodeCtx({ includeUsage }));
        expect(checkChatStream(text, { requireUsage: includeUsage }), `seed ${seed}`).to.deep.equal([]);
        const collected = collectStream(decodeStream(chatCodec, text));
        expect(collected.error, `seed ${seed}`).to.equal(undefined);
        expect(collected.content, `seed ${seed}`).to.deep.equal(expectedStreamContent(response.content));
        expect(collected.stopReason, `seed ${seed}`).to.equal(expectedStop(response));
        const sent = collectStream(events).usage;
        expect(collected.usage, `seed ${seed}`).to.deep.equal(includeUsage ? expectedUsage(sent) : {});
      }
    });
  }
});

describe('chat codec: fixtures re-encoded in both OpenAI protocols stay grammatical', () => {
  for (const name of readdirSync(new URL('../../fixtures/chat/streams/', import.meta.url))) {
    it(`chat/${name} → Chat and Responses client streams`, () => {
      const events = decodeStream(chatCodec, fixtureText('chat', 'streams', name));
      const asChat = encodeStream(chatCodec, events, encodeCtx({ includeUsage: true }));
      const asResponses = encodeStream(responsesCodec, events, encodeCtx());
      expect(checkChatStream(asChat)).to.deep.equal([]);
      expect(checkResponsesStream(asResponses)).to.deep.equal([]);
      expect(collectStream(decodeStream(chatCodec, asChat)).content).to.deep.equal(collectStream(events).content);
    });
  }
});
