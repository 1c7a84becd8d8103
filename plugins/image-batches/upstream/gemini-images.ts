// Gemini-type image generation: generateContent with image output (protocols.md §6.2). The size becomes the
// nearest supported aspect ratio; the image comes back as an `inlineData` part. A blocked prompt or a
// safety finish reason is a content-policy failure; an answer without an image is retried.
import { failureForStatus, postImageRequest, sniffImageType } from './http.ts';
import { UpstreamFailure } from './types.ts';
import type { GeneratedImage, ImageAdapter, ImageCall } from './types.ts';

export const ASPECT_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'] as const;

const POLICY_FINISH = new Set([
  'SAFETY', 'IMAGE_SAFETY', 'PROHIBITED_CONTENT', 'IMAGE_PROHIBITED_CONTENT', 'BLOCKLIST', 'SPII', 'RECITATION', 'IMAGE_RECITATION',
]);
/** A JSON envelope around a base64 image of `maxBytes` bytes (text parts, usage, safety ratings). */
const ENVELOPE_BYTES = 256 * 1024;

/** `1536x1024` → `3:2`: the listed ratio closest on a log scale (so 2:1 and 1:2 are equally far from 1:1). */
export function nearestAspectRatio(size: string): string {
  const [width = 1, height = 1] = size.split('x').map(Number);
  const wanted = Math.log((width || 1) / (height || 1));
  let best: string = ASPECT_RATIOS[0];
  let distance = Number.POSITIVE_INFINITY;
  for (const ratio of ASPECT_RATIOS) {
    const [w = 1, h = 1] = ratio.split(':').map(Number);
    const d = Math.abs(Math.log(w / h) - wanted);
    if (d < distance) {
      best = ratio;
      distance = d;
    }
  }
  return best;
}

export function geminiImageBody(call: Pick<ImageCall, 'prompt' | 'size'>): Record<string, unknown> {
  return {
    contents: [{ role: 'user', parts: [{ text: call.prompt }] }],
    generationConfig: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: nearestAspectRatio(call.size) } },
  };
}

interface InlineData {
  mimeType?: unknown;
  mime_type?: unknown;
  data?: unknown;
}

interface GeminiReply {
  promptFeedback?: { blockReason?: unknown; blockReasonMessage?: unknown };
  candidates?: Array<{ finishReason?: unknown; content?: { parts?: Array<{ inlineData?: InlineData; inline_data?: InlineData }> } }>;
}

function imageFrom(body: unknown, what: string): GeneratedImage {
  const reply = (body ?? {}) as GeminiReply;
  const blocked = reply.promptFeedback?.blockReason;
  if (typeof blocked === 'string' && blocked !== 'BLOCK_REASON_UNSPECIFIED') {
    const detail = typeof reply.promptFeedback?.blockReasonMessage === 'string' ? `: ${reply.promptFeedback.blockReasonMessage}` : '';
    throw new UpstreamFailure('policy', 'content_policy_violation', `${what} blocked the prompt (${blocked})${detail}`);
  }
  const candidate = reply.candidates?.[0];
  const finish = typeof candidate?.finishReason === 'string' ? candidate.finishReason : undefined;
  if (finish && POLICY_FINISH.has(finish)) {
    throw new UpstreamFailure('policy', 'content_policy_violation', `${what} refused to generate the image (finishReason ${finish})`);
  }
  for (const part of candidate?.content?.parts ?? []) {
    const inline = part.inlineData ?? part.inline_data;
    if (typeof inline?.data !== 'string' || !inline.data) continue;
    const bytes = Buffer.from(inline.data, 'base64');
    const declared = typeof inline.mimeType === 'string' ? inline.mimeType : typeof inline.mime_type === 'string' ? inline.mime_type : undefined;
    const mimeType = sniffImageType(bytes) ?? (declared?.startsWith('image/') ? declared : undefined);
    if (mimeType) return { bytes, mimeType };
  }
  throw new UpstreamFailure('transient', 'upstream_error', `${what} answered without an image${finish ? ` (finishReason ${finish})` : ''}`);
}

export const generateGeminiImage: ImageAdapter = async (call) => {
  const what = `provider "${call.endpoint.id}"`;
  const reply = await postImageRequest(call, geminiImageBody(call), ENVELOPE_BYTES);
  if (reply.status >= 200 && reply.status < 300) return imageFrom(reply.body, what);
  throw failureForStatus(reply, what);
};
