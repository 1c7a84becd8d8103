// Replaces remote image URLs in an IR request with their bytes, for upstreams that cannot fetch URLs
// themselves (Gemini takes only inline data or its own Files-API URIs). `data:` URLs are left to the codec.
import { GatewayError } from '../../errors/catalogue.ts';
import type { IRImageBlock, IRRequest } from '../../protocols/ir.ts';
import { fetchImage, type FetchedImage } from './image-fetch.ts';
import type { ImageFetchOptions } from './options.ts';

function remoteImages(request: IRRequest): IRImageBlock[] {
  const found: IRImageBlock[] = [];
  for (const message of request.messages) {
    for (const block of message.content) {
      if (block.type === 'image') found.push(block);
      if (block.type === 'tool_result') for (const item of block.content) if (item.type === 'image') found.push(item);
    }
  }
  return found.filter((block) => block.source.kind === 'url' && !block.source.url.startsWith('data:'));
}

/** Downloads every remote image (in parallel) and rewrites its source to base64, in place. */
export async function inlineRemoteImages(request: IRRequest, options: ImageFetchOptions, signal: AbortSignal): Promise<number> {
  const images = remoteImages(request);
  if (images.length === 0) return 0;
  if (images.length > options.maxImages) {
    throw new GatewayError(
      'invalid_request',
      `This request has ${images.length} image URLs; the gateway downloads at most ${options.maxImages} per request ` +
        "for this model's provider. Send the images as base64 instead.",
    );
  }
  const cache = new Map<string, Promise<FetchedImage>>();
  await Promise.all(
    images.map(async (block) => {
      if (block.source.kind !== 'url') return;
      const url = block.source.url;
      if (!cache.has(url)) cache.set(url, fetchImage(url, options, signal));
      const fetched = await cache.get(url)!;
      block.source = { kind: 'base64', mediaType: fetched.mediaType, data: fetched.data };
    }),
  );
  return images.length;
}
