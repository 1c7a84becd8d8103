// SSE frame serialisation. Event names are fixed identifiers from the protocol docs; data is one JSON line.

/** `event: <name>\ndata: <json>\n\n` (Anthropic, Responses) or `data: <json>\n\n` when no name (Chat). */
export function sseFrame(data: unknown, event?: string): string {
  const json = typeof data === 'string' ? data : JSON.stringify(data);
  if (event !== undefined) {
    if (/[\r\n]/.test(event)) throw new Error('SSE event names cannot contain CR or LF');
    return `event: ${event}\ndata: ${json}\n\n`;
  }
  return `data: ${json}\n\n`;
}

/** Gemini frames use CRLF separators and never an `event:` line (protocols.md §0.1). */
export function geminiSseFrame(data: unknown): string {
  return `data: ${JSON.stringify(data)}\r\n\r\n`;
}
