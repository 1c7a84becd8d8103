// The HTTP side shared by the image adapters: a JSON POST with a time limit and a size cap, the mapping of
// HTTP statuses to failure kinds, and the immediate download of an image an upstream returned as a URL.
import { Interrupted, UpstreamFailure } from './types.ts';
import type { DownloadLimits, ImageCall } from './types.ts';

export interface JsonReply {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the raw text when the body is not JSON. */
  body: unknown;
}

const MAX_MESSAGE = 300;

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_MESSAGE ? `${flat.slice(0, MAX_MESSAGE - 3)}...` : flat;
}

/** Combines the caller's shutdown signal with a deadline, and tells the two apart afterwards. */
function deadline(signal: AbortSignal, timeoutMs: number): { signal: AbortSignal; settle: (error: unknown, what: string) => Error } {
  const timer = AbortSignal.timeout(timeoutMs);
  return {
    signal: AbortSignal.any([signal, timer]),
    settle(error, what) {
      if (signal.aborted) return new Interrupted();
      if (timer.aborted) return new UpstreamFailure('transient', 'upstream_timeout', `${what} did not finish within ${timeoutMs} ms`);
      if (error instanceof UpstreamFailure) return error;
      const code = (error as { cause?: { code?: unknown } }).cause?.code;
      return new UpstreamFailure('transient', 'upstream_error', `${what} failed: network error${typeof code === 'string' ? ` (${code})` : ''}`);
    },
  };
}

async function readCapped(response: Response, maxBytes: number, what: string): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new UpstreamFailure('permanent', 'upstream_error', `${what} is larger than ${maxBytes} bytes`);
  }
  if (!response.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new UpstreamFailure('permanent', 'upstream_error', `${what} is larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function parseBody(bytes: Buffer): unknown {
  const text = bytes.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  limits: { timeoutMs: number; maxBytes: number; signal: AbortSignal; what: string },
): Promise<JsonReply> {
  const limit = deadline(limits.signal, limits.timeoutMs);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: limit.signal,
    });
    const bytes = await readCapped(response, limits.maxBytes, `${limits.what} response`);
    return { status: response.status, headers: response.headers, body: parseBody(bytes) };
  } catch (error) {
    throw limit.settle(error, limits.what);
  }
}

/** Retry-After as milliseconds (delta-seconds or an HTTP date). */
export function retryAfterMs(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** The upstream's own error message, when its body has one in any of the usual shapes. */
export function upstreamMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body ? clip(body) : undefined;
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error === 'string') return clip(error);
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? clip(message) : undefined;
}

/** A non-2xx reply that is not a content-policy refusal. Credentials errors never echo the upstream's text. */
export function failureForStatus(reply: JsonReply, what: string): UpstreamFailure {
  const { status } = reply;
  if (status === 408 || status === 429 || status >= 500) {
    const detail = upstreamMessage(reply.body);
    return new UpstreamFailure('transient', 'upstream_error', `${what} answered HTTP ${status}${detail ? `: ${detail}` : ''}`, retryAfterMs(reply.headers));
  }
  if (status === 401 || status === 403) {
    return new UpstreamFailure('permanent', 'upstream_error', `${what} rejected the gateway's credentials (HTTP ${status})`);
  }
  const detail = upstreamMessage(reply.body);
  return new UpstreamFailure('permanent', 'upstream_error', `${what} refused the request (HTTP ${status})${detail ? `: ${detail}` : ''}`);
}

const SIGNATURES: ReadonlyArray<{ mime: string; test: (b: Buffer) => boolean }> = [
  { mime: 'image/png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { mime: 'image/jpeg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mime: 'image/webp', test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
  { mime: 'image/gif', test: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
];

/** The image type from the bytes themselves; undefined when they are not an image we know. */
export function sniffImageType(bytes: Buffer): string | undefined {
  return SIGNATURES.find((signature) => signature.test(bytes))?.mime;
}

/**
 * Fetches an image URL an upstream returned (such URLs expire, so this happens at once), following redirects,
 * within the size and time limits. The URL comes from the configured provider, not from a client.
 */
export async function downloadImage(url: string, limits: DownloadLimits, signal: AbortSignal): Promise<Buffer> {
  if (!/^https?:\/\//i.test(url)) throw new UpstreamFailure('permanent', 'upstream_error', 'the provider returned an image URL that is not http(s)');
  const limit = deadline(signal, limits.timeoutMs);
  try {
    const response = await fetch(url, { signal: limit.signal, headers: { accept: 'image/*' } });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new UpstreamFailure('transient', 'upstream_error', `downloading the generated image answered HTTP ${response.status}`);
    }
    return await readCapped(response, limits.maxBytes, 'the generated image');
  } catch (error) {
    throw limit.settle(error, 'downloading the generated image');
  }
}

/**
 * Posts an image request to the call's provider under its timeout and a response cap sized for one
 * base64 image (`download.maxBytes` × 4/3) plus the provider's JSON envelope.
 */
export function postImageRequest(call: ImageCall, body: unknown, envelopeBytes: number): Promise<JsonReply> {
  return postJson(call.endpoint.url('images_generate', call.model), call.endpoint.authHeaders(), body, {
    timeoutMs: call.endpoint.timeoutMs,
    maxBytes: Math.ceil((call.download.maxBytes * 4) / 3) + envelopeBytes,
    signal: call.signal,
    what: `provider "${call.endpoint.id}"`,
  });
}
