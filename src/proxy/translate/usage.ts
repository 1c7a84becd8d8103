// IR usage → the access log's TokenUsage (the IR already uses the "input includes cache, output includes
// reasoning" convention, so this only adds the total).
import type { TokenUsage } from '../../core/context.ts';
import type { IRUsage } from '../../protocols/ir.ts';

export function tokenUsage(usage: Partial<IRUsage> | undefined): TokenUsage | undefined {
  if (!usage || (usage.inputTokens === undefined && usage.outputTokens === undefined)) return undefined;
  const out: TokenUsage = {};
  if (usage.inputTokens !== undefined) out.inputTokens = usage.inputTokens;
  if (usage.outputTokens !== undefined) out.outputTokens = usage.outputTokens;
  if (usage.cacheReadTokens !== undefined) out.cacheReadTokens = usage.cacheReadTokens;
  if (usage.cacheWriteTokens !== undefined) out.cacheWriteTokens = usage.cacheWriteTokens;
  if (usage.reasoningTokens !== undefined) out.reasoningTokens = usage.reasoningTokens;
  out.totalTokens = (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
  return out;
}
