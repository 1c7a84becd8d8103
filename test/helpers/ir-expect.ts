// Shared pieces of the "expected IR after a round trip" models used by the codec property tests.
import type { IRBlock, IRMessage, IRToolCallBlock, IRUsage } from '../../src/protocols/ir.ts';

/** Tool-call arguments as a codec that parses and re-serialises them produces them ('' is {}). */
export function canonicalArgs(text: string): string {
  return JSON.stringify(text.trim() === '' ? {} : JSON.parse(text));
}

/**
 * Map every block, drop messages left empty, merge consecutive same-role messages and put tool results first
 * in user messages: what both the Anthropic and the Gemini encoders do to a conversation.
 */
export function mergeMessages(messages: IRMessage[], mapBlock: (block: IRBlock) => IRBlock[]): IRMessage[] {
  const out: IRMessage[] = [];
  for (const message of messages) {
    const content = message.content.flatMap(mapBlock);
    if (content.length === 0) continue;
    const last = out.at(-1);
    if (last !== undefined && last.role === message.role) last.content.push(...content);
    else out.push({ role: message.role, content });
  }
  return out.map((m) => ({ role: m.role, content: [...m.content.filter((b) => b.type === 'tool_result'), ...m.content.filter((b) => b.type !== 'tool_result')] }));
}

/** A tool call as the OpenAI APIs hand it back: id, name and arguments, no signature. */
export function bareToolCall(block: IRToolCallBlock): IRToolCallBlock {
  return { type: 'tool_call', id: block.id, name: block.name, arguments: block.arguments };
}

/** Usage after an OpenAI round trip: input/output always present, detail counters only when non-zero. */
export function expectedOpenAIUsage(usage: Partial<IRUsage>): IRUsage {
  const out: IRUsage = { inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0 };
  if (usage.cacheReadTokens) out.cacheReadTokens = usage.cacheReadTokens;
  if (usage.cacheWriteTokens) out.cacheWriteTokens = usage.cacheWriteTokens;
  if (usage.reasoningTokens) out.reasoningTokens = usage.reasoningTokens;
  return out;
}
