// Property-style round trips for the Responses codec over seeded random IR (test/helpers/ir-gen.ts):
//   request:  IR → encodeRequest → decodeRequest ≈ IR
//   response: IR → encodeResponse → decodeResponse ≈ IR
//   stream:   IR events → encoder → SSE (grammar-checked) → decoder ≈ IR
// "≈" is the `expected*` model below: the IR with exactly the losses Responses documents applied — no stop,
// seed, penalties or top_k; only OpenAI-signed reasoning goes upstream; tool-call signatures are not carried.
import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { chatCodec } from '../../../src/protocols/chat/index.ts';
import type { IRBlock, IRMessage, IRRequest, IRResponse, IRStopReason } from '../../../src/protocols/ir.ts';
import { responsesCodec } from '../../../src/protocols/responses/index.ts';
import { checkChatStream } from '../../helpers/grammar/chat.ts';
import { checkResponsesStream } from '../../helpers/grammar/responses.ts';
import { bareToolCall, expectedOpenAIUsage as expectedUsage } from '../../helpers/ir-expect.ts';
import { Rng, collectStream, genRequest, genResponse, responseToEvents } from '../../helpers/ir-gen.ts';
import { decodeStream, encodeCtx, encodeStream } from '../../helpers/codec.ts';
import { fixtureText } from '../../helpers/fixtures.ts';

const SEEDS = 300;

function userBlock(block: IRBlock): IRBlock[] {
  switch (block.type) {
    case 'text':
    case 'document':
      return [block];
    case 'image':
      return [{ ...block, detail: block.detail ?? 'auto' }];
    case 'tool_result': {
      const only = block.content[0];
      const single = block.content.length === 1 && only?.type === 'text';
      const content = block.content.length === 0 || (single && only.text === '') ? [] : block.content.map((c) => (c.type === 'image' ? { ...c, detail: c.detail ?? 'auto' } : c));
      return [{ type: 'tool_result', callId: block.callId, content }];
    }
    default:
      return [];
  }
}

function assistantBlock(block: IRBlock): IRBlock[] {
  if (block.type === 'text') return block.text === '' ? [] : [block];
  if (block.type === 'tool_call') return [bareToolCall(block)];
  if (block.type === 'reasoning' && block.signature?.vendor === 'openai' && block.redacted === undefined) {
    return [{ type: 'reasoning', text: block.text, signature: block.signature }];
  }
  return [];
}

type Turn = 'user' | 'assistant' | 'tool' | 'none';

/** Input items regroup as the decoder does: assistant items join; tool outputs and a following user message join. */
function expectedMessages(messages: IRMessage[]): IRMessage[] {
  const out: IRMessage[] = [];
  let turn: Turn = 'none';
  const push = (role: IRMessage['role'], blocks: IRBlock[], next: Turn): void => {
    const last = out.at(-1);
    if (last?.role === role && (turn === 'assistant' || (turn === 'tool' && role === 'user'))) last.content.push(...blocks);
    else out.push({ role, content: blocks });
    turn = next;
  };
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const block of message.content.flatMap(assistantBlock)) push('assistant', [block], 'assistant');
      continue;
    }
    let run: IRBlock[] = [];
    for (const block of message.content.flatMap(userBlock)) {
      if (block.type !== 'tool_result') run.push(block);
      else {
        if (run.length > 0) push('user', run, 'user');
        run = [];
        push('user', [block], 'tool');
      }
    }
    if (run.length > 0) push('user', run, 'user');
  }
  return out;
}

function expectedReasoning(reasoning: IRRequest['reasoning']): IRRequest['reasoning'] {
  if (!reasoning) return undefined;
  const budget = reasoning.budgetTokens;
  let effort = reasoning.effort;
  if (effort === undefined && !reasoning.enabled) return undefined;
  if (effort === undefined && budget !== undefined) effort = budget <= 1024 ? 'minimal' : budget <= 2048 ? 'low' : budget <= 8192 ? 'medium' : 'high';
  if (effort === undefined && !reasoning.includeThoughts) return undefined;
  const out: NonNullable<IRRequest['reasoning']> = { enabled: effort !== 'none' };
  if (effort !== undefined) out.effort = effort;
  if (reasoning.includeThoughts) out.includeThoughts = true;
  return out;
}

function expectedRequest(ir: IRRequest): IRRequest {
  const out: IRRequest = { model: ir.model, messages: expectedMessages(ir.messages), stream: ir.stream };
  if (ir.system !== undefined && ir.system !== '') out.system = ir.system;
  const keys = ['maxTokens', 'temperature', 'topP', 'user'] as const;
  if (ir.tools && ir.tools.length > 0) out.tools = ir.tools.map((tool) => ({ ...tool, strict: tool.strict ?? false }));
  for (const key of ir.tools?.length ? [...keys, 'toolChoice', 'parallelToolCalls'] as const : keys) {
    if (ir[key] !== undefined) Object.assign(out, { [key]: ir[key] });
  }
  const format = ir.responseFormat;
  if (format) out.responseFormat = format.type === 'json_schema' && format.name === undefined ? { ...format, name: 'response' } : format;
  const reasoning = expectedReasoning(ir.reasoning);
  if (reasoning) out.reasoning = reasoning;
  return out;
}

function expectedStop(response: IRResponse): IRStopReason {
  if (response.stopReason === 'max_tokens' || response.stopReason === 'context_window_exceeded') return 'max_tokens';
  if (response.stopReason === 'content_filter') return 'content_filter';
  return response.content.some((b) => b.type === 'tool_call') ? 'tool_use' : 'end_turn';
}

/** Output items keep every block; reasoning tokens of any vendor survive in encrypted_content. */
function expectedContent(content: IRBlock[]): IRBlock[] {
  return content.flatMap((block): IRBlock[] => {
    if (block.type === 'text') return [block];
    if (block.type === 'tool_call') return [bareToolCall(block)];
    if (block.type !== 'reasoning') return [];
    if (block.redacted !== undefined) return [{ type: 'reasoning', text: block.text, redacted: block.redacted }];
    return [block.signature ? { type: 'reasoning', text: block.text, signature: block.signature } : { type: 'reasoning', text: block.text }];
  });
}

describe('responses codec: property round trips', () => {
  it(`request: IR → Responses body → IR (${SEEDS} seeds)`, () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const ir = genRequest(new Rng(seed));
      const dropped: string[] = [];
      const body = responsesCodec.encodeRequest(ir, { upstreamModel: ir.model, defaultMaxTokens: 4096, dropped });
      const back = responsesCodec.decodeRequest(JSON.parse(JSON.stringify(body)));
      expect(back, `seed ${seed}`).to.deep.equal(expectedRequest(ir));
      if (ir.stop?.length) expect(dropped, `seed ${seed}`).to.include('stop');
      if (ir.topK !== undefined) expect(dropped, `seed ${seed}`).to.include('top_k');
    }
  });

  it(`response: IR → response object → IR (${SEEDS} seeds)`, () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const ir = genResponse(new Rng(seed));
      const body = responsesCodec.encodeResponse(ir, encodeCtx({}, 'client-model'));
      const back = responsesCodec.decodeResponse(JSON.parse(JSON.stringify(body)));
      const expected: IRResponse = { id: back.id, model: 'client-model', created: ir.created, content: expectedContent(ir.content), stopReason: expectedStop(ir), usage: expectedUsage(ir.usage ?? {}) };
      expect(back, `seed ${seed}`).to.deep.equal(expected);
      expect(back.id).to.match(/^resp_/);
    }
  });

  it(`stream: IR events → Responses SSE → IR events (${SEEDS} seeds)`, () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const rng = new Rng(seed);
      const response = genResponse(rng);
      const events = responseToEvents(rng, response);
      const text = encodeStream(responsesCodec, events, encodeCtx());
      expect(checkResponsesStream(text), `seed ${seed}`).to.deep.equal([]);
      const collected = collectStream(decodeStream(responsesCodec, text));
      expect(collected.error, `seed ${seed}`).to.equal(undefined);
      expect(collected.content, `seed ${seed}`).to.deep.equal(expectedContent(response.content));
      expect(collected.stopReason, `seed ${seed}`).to.equal(expectedStop(response));
      expect(collected.usage, `seed ${seed}`).to.deep.equal(expectedUsage(collectStream(events).usage));
    }
  });
});

describe('responses codec: fixtures re-encoded in both OpenAI protocols stay grammatical', () => {
  for (const name of readdirSync(new URL('../../fixtures/responses/streams/', import.meta.url))) {
    it(`responses/${name} → Responses and Chat client streams`, () => {
      const events = decodeStream(responsesCodec, fixtureText('responses', 'streams', name));
      const asResponses = encodeStream(responsesCodec, events, encodeCtx());
      const asChat = encodeStream(chatCodec, events, encodeCtx({ includeUsage: true }));
      expect(checkResponsesStream(asResponses)).to.deep.equal([]);
      expect(checkChatStream(asChat)).to.deep.equal([]);
      expect(collectStream(decodeStream(responsesCodec, asResponses)).content).to.deep.equal(collectStream(events).content);
    });
  }
});
