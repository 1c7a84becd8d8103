// Reads token usage out of a proxied response without holding it up: chunks are observed as they are
// piped to the client. Only JSON bodies up to a cap are kept for parsing; SSE events are scanned one by
// one and only those mentioning usage are parsed.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { RequestProtocol, TokenUsage } from '../core/context.ts';

const MAX_JSON_BYTES = 4 * 1024 * 1024;

type Json = Record<string, unknown>;
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' ? (v as Json) : undefined);

function openaiUsage(u: Json): TokenUsage {
  return {
    inputTokens: num(u.prompt_tokens) ?? num(u.input_tokens),
    outputTokens: num(u.completion_tokens) ?? num(u.output_tokens),
    cacheReadTokens: num(obj(u.prompt_tokens_details)?.cached_tokens) ?? num(obj(u.input_tokens_details)?.cached_tokens),
    reasoningTokens:
      num(obj(u.completion_tokens_details)?.reasoning_tokens) ?? num(obj(u.output_tokens_details)?.reasoning_tokens),
    totalTokens: num(u.total_tokens),
  };
}

function anthropicUsage(u: Json, previous?: TokenUsage): TokenUsage {
  const input = num(u.input_tokens);
  const cacheRead = num(u.cache_read_input_tokens) ?? previous?.cacheReadTokens;
  const cacheWrite = num(u.cache_creation_input_tokens) ?? previous?.cacheWriteTokens;
  const inputTotal = input === undefined ? previous?.inputTokens : input + (cacheRead ?? 0) + (cacheWrite ?? 0);
  return {
    inputTokens: inputTotal,
    outputTokens: num(u.output_tokens) ?? previous?.outputTokens,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
  };
}

function geminiUsage(u: Json): TokenUsage {
  const candidates = num(u.candidatesTokenCount) ?? 0;
  const thoughts = num(u.thoughtsTokenCount);
  return {
    inputTokens: num(u.promptTokenCount),
    outputTokens: candidates + (thoughts ?? 0),
    cacheReadTokens: num(u.cachedContentTokenCount),
    reasoningTokens: thoughts,
    totalTokens: num(u.totalTokenCount),
  };
}

/** Usage from one response object or stream event of the given protocol (undefined when absent). */
export function usageFrom(protocol: RequestProtocol, body: unknown, previous?: TokenUsage): TokenUsage | undefined {
  const o = obj(body);
  if (!o) return undefined;
  switch (protocol) {
    case 'chat':
      return obj(o.usage) ? openaiUsage(obj(o.usage)!) : undefined;
    case 'responses': {
      const u = obj(o.usage) ?? obj(obj(o.response)?.usage);
      return u ? openaiUsage(u) : undefined;
    }
    case 'messages': {
      const u = obj(o.usage) ?? obj(obj(o.message)?.usage);
      return u ? anthropicUsage(u, previous) : undefined;
    }
    case 'gemini':
      return obj(o.usageMetadata) ? geminiUsage(obj(o.usageMetadata)!) : undefined;
  }
}

export interface UsageTap {
  write(chunk: Buffer): void;
  /** Final usage once the body ended (undefined when the response carried none). */
  finish(): TokenUsage | undefined;
}

export function createUsageTap(protocol: RequestProtocol, contentType: string): UsageTap {
  let usage: TokenUsage | undefined;
  if (contentType.includes('text/event-stream')) {
    const decoder = new TextDecoder();
    const parser = createParser({
      onEvent(event: EventSourceMessage) {
        if (!event.data.includes('sage')) return;
        try {
          usage = usageFrom(protocol, JSON.parse(event.data), usage) ?? usage;
        } catch {
          // A malformed event is the client's to see; usage accounting just skips it.
        }
      },
    });
    return { write: (chunk) => parser.feed(decoder.decode(chunk, { stream: true })), finish: () => usage };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    write(chunk) {
      size += chunk.length;
      if (size <= MAX_JSON_BYTES) chunks.push(chunk);
    },
    finish() {
      if (size === 0 || size > MAX_JSON_BYTES || !contentType.includes('json')) return undefined;
      try {
        const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        // Gemini's non-SSE stream is a JSON array of chunks: the last usage wins.
        const items = Array.isArray(parsed) ? parsed : [parsed];
        for (const item of items) usage = usageFrom(protocol, item, usage) ?? usage;
        return usage;
      } catch {
        return undefined;
      }
    },
  };
}
