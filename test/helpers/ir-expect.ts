// Shared pieces of the "expected IR after a round trip" models used by the codec property tests.
import type { IRBlock, IRMessage } from '../../src/protocols/ir.ts';

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
