// Fixed, realistic OpenAI Chat Completions payloads: what the bench client sends and what the fake
// upstream answers. Built once; every request of a run sends and receives the same bytes.

export const BENCH_MODEL = 'bench-model';
export const UPSTREAM_MODEL = 'gpt-4o-mini';

const ANSWER =
  'Connection pooling keeps a small set of open connections ready, so each request skips the TCP and TLS ' +
  'handshakes and starts sending at once. It also caps how many connections a service opens, which protects ' +
  'the database or upstream API from bursts and keeps latency predictable under load.';

const USAGE = {
  prompt_tokens: 42,
  completion_tokens: 58,
  total_tokens: 100,
  prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
};

const HEAD = { id: 'chatcmpl-BENCH7f3a9c2e41d84b6f9e0a5c1d2b3e4f5a', created: 1735689600, model: 'gpt-4o-mini-2024-07-18' };

/** Request body a Chat Completions client sends (model `bench-model`, which the gateway routes upstream). */
export function chatRequest(stream: boolean, model: string = BENCH_MODEL): string {
  return JSON.stringify({
    model,
    messages: [
      { role: 'system', content: 'You are a concise assistant. Answer in plain prose.' },
      { role: 'user', content: 'Summarise the benefits of connection pooling in two sentences.' },
    ],
    max_tokens: 128,
    temperature: 0.2,
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  });
}

/** The non-streaming chat.completion the fake upstream returns. */
export const CHAT_COMPLETION = JSON.stringify({
  ...HEAD,
  object: 'chat.completion',
  choices: [
    { index: 0, message: { role: 'assistant', content: ANSWER, refusal: null, annotations: [] }, logprobs: null, finish_reason: 'stop' },
  ],
  usage: USAGE,
  service_tier: 'default',
  system_fingerprint: 'fp_bench0001',
});

const frame = (data: unknown): string => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
  frame({
    ...HEAD,
    object: 'chat.completion.chunk',
    system_fingerprint: 'fp_bench0001',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });

/** Splits `text` into `parts` pieces of nearly equal length (none empty while text lasts). */
function split(text: string, parts: number): string[] {
  const size = Math.ceil(text.length / parts);
  return Array.from({ length: parts }, (_, i) => text.slice(i * size, (i + 1) * size));
}

/**
 * The SSE frames of one streamed answer, `total` frames in all (minimum 5): the role frame, content
 * deltas, the finish frame, the usage frame (stream_options.include_usage) and `[DONE]`.
 */
export function chatStreamFrames(total: number): string[] {
  const contentFrames = Math.max(1, total - 4);
  return [
    chunk({ role: 'assistant', content: '', refusal: null }),
    ...split(ANSWER, contentFrames).map((piece) => chunk({ content: piece })),
    chunk({}, 'stop'),
    frame({ ...HEAD, object: 'chat.completion.chunk', system_fingerprint: 'fp_bench0001', choices: [], usage: USAGE }),
    frame('[DONE]'),
  ];
}
