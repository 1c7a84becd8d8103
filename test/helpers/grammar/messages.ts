// Grammar checker for Anthropic Messages SSE streams (protocols.md §3.4, §0.2): returns violations, [] when valid.
//   message_start (once, first) → (content_block_start → content_block_delta* → content_block_stop)* with indexes
//   0,1,2… → message_delta (after all blocks closed) → message_stop (last); `ping` anywhere; or `error` ending it.
import { isObject, parseSse, tryJson } from './sse.ts';

const DELTA_BLOCK: Record<string, string[]> = {
  text_delta: ['text'],
  citations_delta: ['text'],
  input_json_delta: ['tool_use', 'server_tool_use'],
  thinking_delta: ['thinking'],
  signature_delta: ['thinking'],
};
const DELTA_FIELD: Record<string, string> = {
  text_delta: 'text',
  input_json_delta: 'partial_json',
  thinking_delta: 'thinking',
  signature_delta: 'signature',
};
const BLOCK_TYPES = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use', 'server_tool_use']);
const STOP_REASONS = new Set(['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'pause_turn', 'refusal', 'model_context_window_exceeded']);
const EVENTS = new Set(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop', 'ping', 'error']);

type Data = Record<string, unknown>;

class MessagesGrammar {
  readonly violations: string[] = [];
  private started = false;
  private nextIndex = 0;
  private open: { index: number; type: string; json: string } | undefined;
  private sawDelta = false;
  private ended: 'stop' | 'error' | undefined;

  frame(n: number, event: string | undefined, raw: string): void {
    const at = `frame ${n} (${event ?? 'no event'})`;
    if (this.ended !== undefined) return this.fail(`${at}: frame after ${this.ended === 'stop' ? 'message_stop' : 'error'}`);
    if (event === undefined) return this.fail(`${at}: missing "event:" line`);
    if (!EVENTS.has(event)) return this.fail(`${at}: unknown event name`);
    const parsed = tryJson(raw);
    if (!parsed.ok || !isObject(parsed.value)) return this.fail(`${at}: data is not a JSON object`);
    const data = parsed.value;
    if (data.type !== event) return this.fail(`${at}: data.type "${String(data.type)}" differs from the event name`);
    if (event === 'ping') return;
    if (event === 'error') return this.onError(at, data);
    if (!this.started && event !== 'message_start') return this.fail(`${at}: first event must be message_start`);
    this.dispatch(at, event, data);
  }

  finish(text: string): string[] {
    if (text.length > 0 && !/(\r\n\r\n|\n\n|\r\r)$/.test(text)) this.fail('stream does not end with a blank line');
    if (this.ended === undefined) this.fail('stream ended without message_stop or error');
    return this.violations;
  }

  private fail(message: string): void {
    this.violations.push(message);
  }

  private dispatch(at: string, event: string, data: Data): void {
    switch (event) {
      case 'message_start':
        return this.onMessageStart(at, data);
      case 'content_block_start':
        return this.onBlockStart(at, data);
      case 'content_block_delta':
        return this.onBlockDelta(at, data);
      case 'content_block_stop':
        return this.onBlockStop(at, data);
      case 'message_delta':
        return this.onMessageDelta(at, data);
      case 'message_stop':
        if (!this.sawDelta) this.fail(`${at}: message_stop before message_delta`);
        this.ended = 'stop';
    }
  }

  private onMessageStart(at: string, data: Data): void {
    if (this.started) return this.fail(`${at}: duplicate message_start`);
    this.started = true;
    const message = data.message;
    if (!isObject(message)) return this.fail(`${at}: message missing`);
    if (typeof message.id !== 'string' || message.type !== 'message' || message.role !== 'assistant') this.fail(`${at}: bad message id/type/role`);
    if (typeof message.model !== 'string') this.fail(`${at}: message.model must be a string`);
    if (!Array.isArray(message.content) || message.content.length !== 0) this.fail(`${at}: message.content must be []`);
    const usage = message.usage;
    if (!isObject(usage) || typeof usage.input_tokens !== 'number' || typeof usage.output_tokens !== 'number') {
      this.fail(`${at}: message.usage needs numeric input_tokens and output_tokens`);
    }
  }

  private onBlockStart(at: string, data: Data): void {
    if (this.sawDelta) return this.fail(`${at}: content block after message_delta`);
    if (this.open !== undefined) return this.fail(`${at}: block ${this.open.index} still open`);
    if (data.index !== this.nextIndex) return this.fail(`${at}: index ${String(data.index)}, expected ${this.nextIndex}`);
    const block = data.content_block;
    if (!isObject(block) || typeof block.type !== 'string' || !BLOCK_TYPES.has(block.type)) return this.fail(`${at}: bad content_block`);
    if (block.type === 'text' && block.text !== '') this.fail(`${at}: text block must start empty`);
    if (block.type === 'tool_use' && (typeof block.id !== 'string' || typeof block.name !== 'string' || !isObject(block.input))) {
      this.fail(`${at}: tool_use block needs id, name and an input object`);
    }
    if (block.type === 'redacted_thinking' && typeof block.data !== 'string') this.fail(`${at}: redacted_thinking needs data`);
    this.open = { index: this.nextIndex, type: block.type, json: '' };
    this.nextIndex += 1;
  }

  private onBlockDelta(at: string, data: Data): void {
    const open = this.open;
    if (open === undefined || data.index !== open.index) return this.fail(`${at}: delta for index ${String(data.index)} which is not open`);
    const delta = data.delta;
    if (!isObject(delta) || typeof delta.type !== 'string') return this.fail(`${at}: delta missing`);
    const allowed = DELTA_BLOCK[delta.type];
    if (allowed === undefined || !allowed.includes(open.type)) return this.fail(`${at}: ${delta.type} inside a ${open.type} block`);
    const field = DELTA_FIELD[delta.type];
    if (field !== undefined && typeof delta[field] !== 'string') this.fail(`${at}: ${delta.type}.${field} must be a string`);
    if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') open.json += delta.partial_json;
  }

  private onBlockStop(at: string, data: Data): void {
    const open = this.open;
    if (open === undefined || data.index !== open.index) return this.fail(`${at}: stop for index ${String(data.index)} which is not open`);
    if (open.type === 'tool_use' && open.json !== '' && !tryJson(open.json).ok) this.fail(`${at}: tool input JSON does not parse`);
    this.open = undefined;
  }

  private onMessageDelta(at: string, data: Data): void {
    if (this.open !== undefined) this.fail(`${at}: message_delta while block ${this.open.index} is open`);
    this.sawDelta = true;
    const delta = data.delta;
    if (!isObject(delta) || typeof delta.stop_reason !== 'string' || !STOP_REASONS.has(delta.stop_reason)) {
      this.fail(`${at}: message_delta.delta.stop_reason invalid`);
    }
    if (!isObject(data.usage) || typeof data.usage.output_tokens !== 'number') this.fail(`${at}: message_delta.usage.output_tokens missing`);
  }

  private onError(at: string, data: Data): void {
    const error = data.error;
    if (!isObject(error) || typeof error.type !== 'string' || typeof error.message !== 'string') {
      this.fail(`${at}: error needs error.type and error.message`);
    }
    this.ended = 'error';
  }
}

export function checkMessagesStream(text: string): string[] {
  const grammar = new MessagesGrammar();
  parseSse(text).forEach((frame, n) => grammar.frame(n, frame.event, frame.data));
  return grammar.finish(text);
}
