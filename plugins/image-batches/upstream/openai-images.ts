// OpenAI-type image generation: POST {baseUrl}/images/generations with {model, prompt, size, n: 1}.
// GPT image models always answer base64; dall-e models are asked for `b64_json` so no URL has to be fetched,
// and when a URL comes back anyway (compatible servers) it is downloaded at once. protocols.md §6.1.
import { downloadImage, failureForStatus, postImageRequest, sniffImageType, upstreamMessage } from './http.ts';
import { UpstreamFailure } from './types.ts';
import type { GeneratedImage, ImageAdapter, ImageCall } from './types.ts';

/** Codes and wording OpenAI and compatible servers use when the safety system refuses a prompt. */
const POLICY_CODES = new Set(['content_policy_violation', 'moderation_blocked', 'content_filter', 'safety_violation']);
const POLICY_WORDING = /content[ _-]?policy|safety system|moderation|content filter/i;
const OUTPUT_FORMATS: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', jpg: 'image/jpeg', webp: 'image/webp' };
/** A JSON envelope around a base64 image of `maxBytes` bytes. */
const ENVELOPE_BYTES = 64 * 1024;

export function openaiImageBody(call: Pick<ImageCall, 'model' | 'prompt' | 'size'>): Record<string, unknown> {
  return {
    model: call.model,
    prompt: call.prompt,
    size: call.size,
    n: 1,
    ...(/^dall-e/i.test(call.model) ? { response_format: 'b64_json' } : {}),
  };
}

function isPolicyRefusal(status: number, body: unknown): boolean {
  if (status !== 400 && status !== 403 && status !== 422) return false;
  const error = (body as { error?: { code?: unknown; type?: unknown } } | null)?.error;
  const code = typeof error?.code === 'string' ? error.code : typeof error?.type === 'string' ? error.type : '';
  return POLICY_CODES.has(code) || POLICY_WORDING.test(upstreamMessage(body) ?? '');
}

interface ImageData {
  b64_json?: unknown;
  url?: unknown;
}

async function imageFrom(body: unknown, call: ImageCall): Promise<GeneratedImage> {
  const reply = (body ?? {}) as { data?: unknown; output_format?: unknown };
  const first = Array.isArray(reply.data) ? (reply.data[0] as ImageData | undefined) : undefined;
  let bytes: Buffer;
  if (typeof first?.b64_json === 'string' && first.b64_json) bytes = Buffer.from(first.b64_json, 'base64');
  else if (typeof first?.url === 'string' && first.url) bytes = await downloadImage(first.url, call.download, call.signal);
  else throw new UpstreamFailure('transient', 'upstream_error', `provider "${call.endpoint.id}" answered without an image`);
  const declared = typeof reply.output_format === 'string' ? OUTPUT_FORMATS[reply.output_format.toLowerCase()] : undefined;
  const mimeType = sniffImageType(bytes) ?? declared;
  if (!mimeType) throw new UpstreamFailure('transient', 'upstream_error', `provider "${call.endpoint.id}" returned bytes that are not an image`);
  return { bytes, mimeType };
}

export const generateOpenAIImage: ImageAdapter = async (call) => {
  const what = `provider "${call.endpoint.id}"`;
  const reply = await postImageRequest(call, openaiImageBody(call), ENVELOPE_BYTES);
  if (reply.status >= 200 && reply.status < 300) return imageFrom(reply.body, call);
  if (isPolicyRefusal(reply.status, reply.body)) {
    throw new UpstreamFailure('policy', 'content_policy_violation', upstreamMessage(reply.body) ?? `${what} refused the prompt under its content policy`);
  }
  throw failureForStatus(reply, what);
};
