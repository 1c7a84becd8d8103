// SSE text → frames, parsed with eventsource-parser (the same library the gateway uses).
import { createParser } from 'eventsource-parser';

export interface ParsedFrame {
  event?: string;
  data: string;
}

export function parseSse(text: string): ParsedFrame[] {
  const frames: ParsedFrame[] = [];
  const parser = createParser({
    onEvent: (message) => frames.push(message.event === undefined ? { data: message.data } : { event: message.event, data: message.data }),
  });
  parser.feed(text);
  parser.reset({ consume: true });
  return frames;
}

/** JSON.parse that reports instead of throwing. */
export function tryJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
