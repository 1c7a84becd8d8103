// Seeded random IR generator for property-style codec tests, plus a fold of IR stream events into a response.
// Deterministic (mulberry32): a failing seed reproduces exactly. Generated IR is always well formed: tool results
// answer the previous assistant turn's calls, arguments are compact JSON objects, usage counts are consistent.
import type {
  IRBlock,
  IRMessage,
  IRReasoningBlock,
  IRReasoningConfig,
  IRRequest,
  IRResponse,
  IRStopReason,
  IRStreamDelta,
  IRStreamEvent,
  IRTool,
  IRToolCallBlock,
  IRToolChoice,
  IRUsage,
  Vendor,
} from '../../src/protocols/ir.ts';

export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  bool(p = 0.5): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }
  maybe<T>(p: number, make: () => T): T | undefined {
    return this.bool(p) ? make() : undefined;
  }
}

const WORDS = ['alpha', 'Paris', 'weather', '42', 'naïve', 'emoji 🚀', 'quote "x"', 'back\\slash', 'line\nbreak', 'tab\t', '中文', 'ok'];
const VENDORS: readonly Vendor[] = ['openai', 'anthropic', 'gemini'];
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const STOP_REASONS: readonly IRStopReason[] = ['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'content_filter', 'pause_turn', 'context_window_exceeded'];

export function genText(rng: Rng, maxWords = 8): string {
  return Array.from({ length: rng.int(1, maxWords) }, () => rng.pick(WORDS)).join(' ');
}

function genId(rng: Rng, prefix: string): string {
  return `${prefix}${Math.floor(rng.next() * 1e12).toString(36)}${rng.int(0, 9999)}`;
}

function genBase64(rng: Rng): string {
  return Buffer.from(Array.from({ length: rng.int(3, 24) }, () => rng.int(0, 255))).toString('base64');
}

function genSchema(rng: Rng): Record<string, unknown> {
  const names = Array.from({ length: rng.int(1, 4) }, (_v, i) => `${rng.pick(['city', 'unit', 'count', 'flag', 'tags'])}_${i}`);
  const properties = Object.fromEntries(
    names.map((name) => [name, rng.pick([{ type: 'string' }, { type: 'integer' }, { type: 'number' }, { type: 'boolean' }, { type: 'array', items: { type: 'string' } }])]),
  );
  return { type: 'object', properties, required: names.filter(() => rng.bool()) };
}

function genArgs(rng: Rng): string {
  const args: Record<string, unknown> = {};
  for (let i = rng.int(0, 3); i > 0; i--) args[`k${i}`] = rng.pick<unknown>([genText(rng, 3), rng.int(-5, 500), rng.bool(), [genText(rng, 2)], { nested: genText(rng, 2) }]);
  return JSON.stringify(args);
}

function genSignature(rng: Rng): { vendor: Vendor; value: string } {
  return { vendor: rng.pick(VENDORS), value: genBase64(rng) };
}

export function genReasoning(rng: Rng): IRReasoningBlock {
  if (rng.bool(0.15)) return { type: 'reasoning', text: '', redacted: genBase64(rng) };
  const block: IRReasoningBlock = { type: 'reasoning', text: genText(rng) };
  if (rng.bool(0.8)) block.signature = genSignature(rng);
  return block;
}

function genToolCall(rng: Rng, tools: IRTool[]): IRToolCallBlock {
  const call: IRToolCallBlock = { type: 'tool_call', id: genId(rng, rng.pick(['call_', 'toolu_', 'fc-'])), name: rng.pick(tools).name, arguments: genArgs(rng) };
  if (rng.bool(0.3)) call.signature = genSignature(rng);
  return call;
}

function genUserBlock(rng: Rng): IRBlock {
  const kind = rng.pick(['text', 'text', 'text', 'image', 'url', 'pdf', 'plain']);
  if (kind === 'image') return { type: 'image', source: { kind: 'base64', mediaType: rng.pick(IMAGE_TYPES), data: genBase64(rng) } };
  if (kind === 'url') return { type: 'image', source: { kind: 'url', url: `https://example.com/img/${rng.int(1, 99)}.${rng.pick(['png', 'jpg'])}` } };
  if (kind === 'pdf') return { type: 'document', mediaType: 'application/pdf', data: genBase64(rng), filename: `doc${rng.int(1, 9)}.pdf` };
  if (kind === 'plain') return { type: 'document', mediaType: 'text/plain', data: Buffer.from(genText(rng), 'utf8').toString('base64') };
  return { type: 'text', text: genText(rng) };
}

function genToolResults(rng: Rng, calls: IRToolCallBlock[]): IRBlock[] {
  return calls.map((call) => {
    const text = rng.bool() ? JSON.stringify({ result: genText(rng, 3), n: rng.int(0, 9) }) : genText(rng);
    const block: IRBlock = { type: 'tool_result', callId: call.id, content: [{ type: 'text', text }] };
    if (rng.bool(0.5)) block.name = call.name;
    if (rng.bool(0.2)) block.isError = true;
    return block;
  });
}

function genAssistant(rng: Rng, tools: IRTool[]): IRMessage {
  const content: IRBlock[] = [];
  if (rng.bool(0.4)) content.push(genReasoning(rng));
  if (rng.bool(0.8)) content.push({ type: 'text', text: genText(rng) });
  if (tools.length > 0 && rng.bool(0.5)) for (let i = rng.int(1, 3); i > 0; i--) content.push(genToolCall(rng, tools));
  if (content.length === 0) content.push({ type: 'text', text: genText(rng) });
  return { role: 'assistant', content };
}

export function genMessages(rng: Rng, tools: IRTool[]): IRMessage[] {
  const messages: IRMessage[] = [{ role: 'user', content: Array.from({ length: rng.int(1, 3) }, () => genUserBlock(rng)) }];
  for (let turn = rng.int(0, 3); turn > 0; turn--) {
    const assistant = genAssistant(rng, tools);
    messages.push(assistant);
    const calls = assistant.content.filter((block): block is IRToolCallBlock => block.type === 'tool_call');
    const user: IRBlock[] = genToolResults(rng, calls);
    if (calls.length === 0 || rng.bool(0.3)) user.push({ type: 'text', text: genText(rng) });
    messages.push({ role: 'user', content: user });
  }
  return messages;
}

function genToolChoice(rng: Rng, tools: IRTool[]): IRToolChoice {
  const names = tools.map((tool) => tool.name);
  const kind = rng.pick(['auto', 'none', 'required', 'tool', 'allowed'] as const);
  if (kind === 'tool') return { type: 'tool', name: rng.pick(names) };
  if (kind === 'allowed') return { type: 'allowed', mode: rng.pick(['auto', 'required'] as const), names: names.filter(() => rng.bool(0.7)) };
  return { type: kind };
}

export function genTools(rng: Rng): IRTool[] {
  return Array.from({ length: rng.int(1, 3) }, (_v, i) => {
    const tool: IRTool = { name: `tool_${i}_${rng.pick(['weather', 'time', 'search'])}` };
    if (rng.bool(0.7)) tool.description = genText(rng);
    if (rng.bool(0.8)) tool.parameters = genSchema(rng);
    if (rng.bool(0.2)) tool.strict = true;
    return tool;
  });
}

export function genRequest(rng: Rng): IRRequest {
  const tools = rng.bool(0.6) ? genTools(rng) : [];
  const request: IRRequest = { model: `model-${rng.int(1, 9)}`, messages: genMessages(rng, tools), stream: rng.bool() };
  if (tools.length > 0) request.tools = tools;
  if (tools.length > 0 && rng.bool(0.6)) request.toolChoice = genToolChoice(rng, tools);
  if (tools.length > 0 && rng.bool(0.3)) request.parallelToolCalls = rng.bool();
  const set = <K extends keyof IRRequest>(p: number, key: K, make: () => IRRequest[K]): void => {
    if (rng.bool(p)) request[key] = make();
  };
  set(0.5, 'system', () => genText(rng));
  set(0.7, 'maxTokens', () => rng.int(16, 8192));
  set(0.5, 'temperature', () => rng.int(0, 20) / 10);
  set(0.3, 'topP', () => rng.int(1, 100) / 100);
  set(0.2, 'topK', () => rng.int(1, 100));
  set(0.3, 'stop', () => [genText(rng, 2)]);
  set(0.2, 'seed', () => rng.int(0, 1000));
  set(0.2, 'presencePenalty', () => rng.int(-20, 20) / 10);
  set(0.2, 'frequencyPenalty', () => rng.int(-20, 20) / 10);
  set(0.2, 'user', () => genId(rng, 'user-'));
  set(0.3, 'responseFormat', () => rng.pick([{ type: 'text' as const }, { type: 'json_object' as const }, { type: 'json_schema' as const, name: 'out', schema: genSchema(rng) }]));
  set(0.4, 'reasoning', () => {
    if (rng.bool(0.2)) return { enabled: false };
    const reasoning: IRReasoningConfig = { enabled: true };
    const mode = rng.pick(['effort', 'budget', 'default'] as const);
    if (mode === 'effort') reasoning.effort = rng.pick(['minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const);
    if (mode === 'budget') reasoning.budgetTokens = rng.int(1024, 30000);
    if (rng.bool()) reasoning.includeThoughts = rng.bool();
    return reasoning;
  });
  return request;
}

export function genUsage(rng: Rng): IRUsage {
  const usage: IRUsage = { inputTokens: rng.int(1, 5000), outputTokens: rng.int(1, 3000) };
  if (rng.bool()) usage.cacheReadTokens = rng.int(0, Math.floor(usage.inputTokens / 2));
  if (rng.bool(0.3)) usage.cacheWriteTokens = rng.int(0, Math.floor(usage.inputTokens / 3));
  if (rng.bool()) usage.reasoningTokens = rng.int(0, usage.outputTokens);
  return usage;
}

export function genResponse(rng: Rng): IRResponse {
  const tools = genTools(rng);
  const content = genAssistant(rng, tools).content;
  const stopReason = content.some((block) => block.type === 'tool_call') && rng.bool(0.8) ? 'tool_use' : rng.pick(STOP_REASONS);
  const response: IRResponse = { id: genId(rng, 'resp'), model: `model-${rng.int(1, 9)}`, created: 1_700_000_000 + rng.int(0, 1e6), content, stopReason };
  if (stopReason === 'stop_sequence') response.stopSequence = genText(rng, 1);
  if (rng.bool(0.9)) response.usage = genUsage(rng);
  return response;
}

function fragments(rng: Rng, text: string): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  while (chars.length > 0) out.push(chars.splice(0, rng.int(1, 6)).join(''));
  return out;
}

/** A response as an IR event stream (random fragmenting; usage sometimes after finish, as Chat upstreams send it). */
export function responseToEvents(rng: Rng, response: IRResponse): IRStreamEvent[] {
  const usage = response.usage;
  const events: IRStreamEvent[] = [{ type: 'start', id: response.id, model: response.model }];
  if (usage !== undefined) events[0] = { type: 'start', id: response.id, model: response.model, usage: { inputTokens: usage.inputTokens } };
  response.content.forEach((block, index) => events.push(...blockEvents(rng, block, index)));
  const finish: IRStreamEvent = response.stopSequence === undefined ? { type: 'finish', stopReason: response.stopReason } : { type: 'finish', stopReason: response.stopReason, stopSequence: response.stopSequence };
  const tail: IRStreamEvent[] = usage === undefined ? [finish] : [{ type: 'usage', usage }, finish];
  if (rng.bool()) tail.reverse();
  return [...events, ...tail];
}

function blockEvents(rng: Rng, block: IRBlock, index: number): IRStreamEvent[] {
  const delta = (d: IRStreamDelta): IRStreamEvent => ({ type: 'block_delta', index, delta: d });
  switch (block.type) {
    case 'text':
      return [{ type: 'block_start', index, block: { type: 'text' } }, ...fragments(rng, block.text).map((text) => delta({ type: 'text', text })), { type: 'block_stop', index }];
    case 'reasoning': {
      const start: IRStreamEvent = { type: 'block_start', index, block: block.redacted === undefined ? { type: 'reasoning' } : { type: 'reasoning', redacted: block.redacted } };
      const body = fragments(rng, block.text).map((text) => delta({ type: 'reasoning', text }));
      const signature = block.signature === undefined ? [] : [delta({ type: 'signature', signature: block.signature })];
      return [start, ...body, ...signature, { type: 'block_stop', index }];
    }
    case 'tool_call': {
      const start: IRStreamEvent = { type: 'block_start', index, block: block.signature === undefined ? { type: 'tool_call', id: block.id, name: block.name } : { type: 'tool_call', id: block.id, name: block.name, signature: block.signature } };
      return [start, ...fragments(rng, block.arguments).map((partialJson) => delta({ type: 'arguments', partialJson })), { type: 'block_stop', index }];
    }
    default:
      return [];
  }
}

export interface CollectedStream {
  id?: string;
  content: IRBlock[];
  stopReason?: IRStopReason;
  stopSequence?: string;
  usage: Partial<IRUsage>;
  error?: IRStreamEvent & { type: 'error' };
}

/** Folds IR stream events into the response they describe (blocks in opening order, usage fields last-wins). */
export function collectStream(events: IRStreamEvent[]): CollectedStream {
  const out: CollectedStream = { content: [], usage: {} };
  const blocks = new Map<number, IRBlock>();
  for (const event of events) {
    if (event.type === 'start') {
      if (event.id !== undefined) out.id = event.id;
      Object.assign(out.usage, event.usage);
    } else if (event.type === 'usage') Object.assign(out.usage, event.usage);
    else if (event.type === 'finish') {
      out.stopReason = event.stopReason;
      if (event.stopSequence !== undefined) out.stopSequence = event.stopSequence;
    } else if (event.type === 'error') out.error = event;
    else if (event.type === 'block_start') {
      const b = event.block;
      const block: IRBlock = b.type === 'text' ? { type: 'text', text: '' } : b.type === 'reasoning' ? { type: 'reasoning', text: '' } : { type: 'tool_call', id: b.id, name: b.name, arguments: '' };
      if (b.type === 'reasoning' && b.redacted !== undefined && block.type === 'reasoning') block.redacted = b.redacted;
      if (b.type === 'tool_call' && b.signature !== undefined && block.type === 'tool_call') block.signature = b.signature;
      blocks.set(event.index, block);
      out.content.push(block);
    } else if (event.type === 'block_delta') applyDelta(blocks.get(event.index), event.delta);
  }
  return out;
}

function applyDelta(block: IRBlock | undefined, delta: IRStreamDelta): void {
  if (block === undefined) throw new Error('delta for a block that was never started');
  if (delta.type === 'text' && block.type === 'text') block.text += delta.text;
  else if (delta.type === 'reasoning' && block.type === 'reasoning') block.text += delta.text;
  else if (delta.type === 'arguments' && block.type === 'tool_call') block.arguments += delta.partialJson;
  else if (delta.type === 'signature' && (block.type === 'reasoning' || block.type === 'tool_call')) block.signature = delta.signature;
  else throw new Error(`${delta.type} delta for a ${block.type} block`);
}
