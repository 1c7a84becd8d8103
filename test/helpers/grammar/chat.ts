// Grammar checker for Chat Completions SSE streams (protocols.md §1.4, §0.1, §0.2): returns violations, [] when valid.
//   no `event:` lines; every data line is JSON or `[DONE]`; one stable id/created/model; role chunk first;
//   tool_calls indexes appear in order 0,1,2… with id/type/name only on the first delta of an index;
//   one finish chunk (empty delta) after all content; a usage chunk (choices []) only after it and only
//   when chunks carry `usage`; `[DONE]` last, exactly once — or an `{"error":…}` object and no `[DONE]`.
import { isObject, parseSse, tryJson } from './sse.ts';

const FINISH_REASONS = new Set(['stop', 'length', 'tool_calls', 'content_filter', 'function_call']);

type Data = Record<string, unknown>;

export interface ChatGrammarOptions {
  /** Require the usage chunk (the client asked for `stream_options.include_usage`). */
  requireUsage?: boolean;
}

class ChatGrammar {
  readonly violations: string[] = [];
  private identity: { id: unknown; created: unknown; model: unknown } | undefined;
  private chunks = 0;
  private usageKey: boolean | undefined;
  private finished = false;
  private usageSeen = false;
  private ended: 'done' | 'error' | undefined;
  private readonly tools = new Set<number>();

  frame(n: number, event: string | undefined, raw: string): void {
    const at = `frame ${n}`;
    if (event !== undefined) this.fail(`${at}: Chat streams carry no "event:" line (got "${event}")`);
    if (this.ended !== undefined) return this.fail(`${at}: data after ${this.ended === 'done' ? '[DONE]' : 'the error object'}`);
    if (raw.trim() === '[DONE]') return this.onDone(at);
    const parsed = tryJson(raw);
    if (!parsed.ok || !isObject(parsed.value)) return this.fail(`${at}: data is neither JSON nor [DONE]`);
    const data = parsed.value;
    if (data.error !== undefined) return this.onError(at, data);
    this.onChunk(at, data);
  }

  finish(text: string, options: ChatGrammarOptions): string[] {
    if (text.length > 0 && !/\n\n$/.test(text)) this.fail('stream does not end with a blank line');
    if (this.ended === undefined) this.fail('stream ended without [DONE] or an error object');
    if (this.ended === 'done' && options.requireUsage && !this.usageSeen) this.fail('include_usage stream without a usage chunk');
    return this.violations;
  }

  private fail(message: string): void {
    this.violations.push(message);
  }

  private onDone(at: string): void {
    if (!this.finished) this.fail(`${at}: [DONE] before any finish_reason`);
    this.ended = 'done';
  }

  private onError(at: string, data: Data): void {
    const error = data.error;
    if (!isObject(error) || typeof error.message !== 'string') this.fail(`${at}: error object without error.message`);
    else if (typeof error.type !== 'string') this.fail(`${at}: error object without error.type`);
    this.ended = 'error';
  }

  private onChunk(at: string, data: Data): void {
    if (data.object !== 'chat.completion.chunk') this.fail(`${at}: object is not "chat.completion.chunk"`);
    if (typeof data.id !== 'string' || typeof data.created !== 'number' || typeof data.model !== 'string') {
      this.fail(`${at}: id/created/model missing or mistyped`);
    }
    this.checkIdentity(at, data);
    if (this.usageSeen) this.fail(`${at}: chunk after the usage chunk`);
    if (!Array.isArray(data.choices)) return this.fail(`${at}: choices is not an array`);
    if (data.choices.length === 0) return this.onUsageChunk(at, data);
    this.checkUsageKey(at, data);
    if (this.finished) this.fail(`${at}: choice chunk after the finish chunk`);
    const choice: unknown = data.choices[0];
    if (data.choices.length !== 1 || !isObject(choice) || choice.index !== 0) return this.fail(`${at}: expected exactly one choice with index 0`);
    this.onChoice(at, choice);
    this.chunks++;
  }

  private checkIdentity(at: string, data: Data): void {
    if (this.identity === undefined) {
      this.identity = { id: data.id, created: data.created, model: data.model };
      return;
    }
    for (const key of ['id', 'created', 'model'] as const) {
      if (data[key] !== this.identity[key]) this.fail(`${at}: ${key} changed from ${String(this.identity[key])} to ${String(data[key])}`);
    }
  }

  private checkUsageKey(at: string, data: Data): void {
    const has = 'usage' in data;
    if (has && data.usage !== null) this.fail(`${at}: usage must be null on choice chunks`);
    if (this.usageKey === undefined) this.usageKey = has;
    else if (this.usageKey !== has) this.fail(`${at}: "usage": null present on some chunks but not others`);
  }

  private onUsageChunk(at: string, data: Data): void {
    const usage = data.usage;
    if (!isObject(usage)) return this.fail(`${at}: chunk with empty choices must carry usage`);
    if (!this.finished) this.fail(`${at}: usage chunk before the finish chunk`);
    if (this.usageKey === false) this.fail(`${at}: usage chunk in a stream whose chunks have no "usage": null`);
    for (const key of ['prompt_tokens', 'completion_tokens', 'total_tokens']) {
      if (typeof usage[key] !== 'number') this.fail(`${at}: usage.${key} is not a number`);
    }
    this.usageSeen = true;
  }

  private onChoice(at: string, choice: Data): void {
    const delta = choice.delta;
    if (!isObject(delta)) return this.fail(`${at}: delta is not an object`);
    if (this.chunks === 0 && delta.role !== 'assistant') this.fail(`${at}: first chunk must carry delta.role "assistant"`);
    if (this.chunks > 0 && delta.role !== undefined) this.fail(`${at}: delta.role repeated after the first chunk`);
    if (delta.content !== undefined && delta.content !== null && typeof delta.content !== 'string') this.fail(`${at}: delta.content is not a string`);
    if (delta.tool_calls !== undefined) this.onToolCalls(at, delta.tool_calls);
    const finish = choice.finish_reason;
    if (finish === null || finish === undefined) return;
    if (typeof finish !== 'string' || !FINISH_REASONS.has(finish)) this.fail(`${at}: unknown finish_reason ${String(finish)}`);
    if ((typeof delta.content === 'string' && delta.content !== '') || delta.tool_calls !== undefined) {
      this.fail(`${at}: the finish chunk must have an empty delta`);
    }
    this.finished = true;
  }

  private onToolCalls(at: string, calls: unknown): void {
    if (!Array.isArray(calls)) return this.fail(`${at}: delta.tool_calls is not an array`);
    for (const call of calls) {
      if (!isObject(call) || typeof call.index !== 'number') {
        this.fail(`${at}: tool call without a numeric index`);
        continue;
      }
      const fn = isObject(call.function) ? call.function : {};
      if (fn.arguments !== undefined && typeof fn.arguments !== 'string') this.fail(`${at}: tool call ${call.index} arguments is not a string`);
      if (this.tools.has(call.index)) {
        if (call.id !== undefined || call.type !== undefined || fn.name !== undefined) this.fail(`${at}: tool call ${call.index} repeats id/type/name`);
        continue;
      }
      if (call.index !== this.tools.size) this.fail(`${at}: tool call index ${call.index} skips ahead (expected ${this.tools.size})`);
      if (typeof call.id !== 'string' || call.id === '') this.fail(`${at}: first delta of tool call ${call.index} has no id`);
      if (call.type !== 'function') this.fail(`${at}: first delta of tool call ${call.index} has no type "function"`);
      if (typeof fn.name !== 'string' || fn.name === '') this.fail(`${at}: first delta of tool call ${call.index} has no function.name`);
      this.tools.add(call.index);
    }
  }
}

export function checkChatStream(text: string, options: ChatGrammarOptions = {}): string[] {
  const grammar = new ChatGrammar();
  const frames = parseSse(text);
  if (frames.length === 0) return ['stream has no events'];
  frames.forEach((frame, n) => grammar.frame(n, frame.event, frame.data));
  return grammar.finish(text, options);
}
