// Downloads a client-supplied image URL for an upstream that only takes bytes (Gemini). Only http(s),
// at most `maxBytes`, within `timeoutMs` (connection, redirects and body together), at most 3 redirects,
// and never to a loopback/private address unless `allowPrivateNetworks` (address-guard.ts).
import http from 'node:http';
import https from 'node:https';
import { GatewayError } from '../../errors/catalogue.ts';
import { BlockedAddressError, guardedLookup, isBlockedAddress } from './address-guard.ts';
import type { ImageFetchOptions } from './options.ts';

const MAX_REDIRECTS = 3;

export interface FetchedImage {
  mediaType: string;
  /** Base64 of the bytes. */
  data: string;
}

function shown(url: string): string {
  return url.length > 120 ? `${url.slice(0, 117)}...` : url;
}

function refuse(url: string, reason: string): GatewayError {
  return new GatewayError('invalid_request', `Image URL ${shown(url)} could not be used: ${reason}.`);
}

/** Checks a URL before connecting: scheme, and the host when it is an IP literal (lookup never runs for those). */
function checkTarget(url: URL, options: ImageFetchOptions): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse(url.href, 'only http and https URLs are fetched');
  if (options.allowPrivateNetworks) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (/^[\d.]+$/.test(host) || host.includes(':')) {
    if (isBlockedAddress(host)) throw refuse(url.href, 'it points to a loopback/private/link-local address');
  }
}

/** Media type from the Content-Type header, else from the file's magic bytes. */
function mediaTypeOf(header: string | undefined, bytes: Buffer): string | undefined {
  const declared = header?.split(';')[0]?.trim().toLowerCase();
  if (declared?.startsWith('image/')) return declared;
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return undefined;
}

type Hop = { kind: 'redirect'; location: string } | { kind: 'body'; bytes: Buffer; contentType: string | undefined };

function requestOnce(url: URL, options: ImageFetchOptions, signal: AbortSignal): Promise<Hop> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Hop>((resolve, reject) => {
    const req = client.get(url, { signal, ...(options.allowPrivateNetworks ? {} : { lookup: guardedLookup }), headers: { accept: 'image/*' } }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && typeof res.headers.location === 'string') {
        res.resume();
        return resolve({ kind: 'redirect', location: res.headers.location });
      }
      if (status < 200 || status >= 300) {
        res.resume();
        return reject(refuse(url.href, `the server answered HTTP ${status}`));
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        res.destroy();
        return reject(refuse(url.href, `it is larger than ${options.maxBytes} bytes`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) {
          res.destroy();
          reject(refuse(url.href, `it is larger than ${options.maxBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      res.once('end', () => resolve({ kind: 'body', bytes: Buffer.concat(chunks), contentType: res.headers['content-type'] }));
      res.once('error', reject);
    });
    req.once('error', reject);
  });
}

function describeFailure(url: string, error: unknown, signal: AbortSignal): GatewayError {
  if (error instanceof GatewayError) return error;
  if (error instanceof BlockedAddressError) return refuse(url, 'it resolves to a loopback/private/link-local address');
  if (signal.aborted) return refuse(url, 'the download timed out or was cancelled');
  const code = (error as { code?: unknown }).code;
  return refuse(url, `the download failed${typeof code === 'string' ? ` (${code})` : ''}`);
}

export async function fetchImage(rawUrl: string, options: ImageFetchOptions, clientSignal: AbortSignal): Promise<FetchedImage> {
  const signal = AbortSignal.any([clientSignal, AbortSignal.timeout(options.timeoutMs)]);
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw refuse(rawUrl, 'it is not a valid URL');
  }
  for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
    checkTarget(url, options);
    let result: Hop;
    try {
      result = await requestOnce(url, options, signal);
    } catch (error) {
      throw describeFailure(rawUrl, error, signal);
    }
    if (result.kind === 'redirect') {
      url = new URL(result.location, url);
      continue;
    }
    const mediaType = mediaTypeOf(result.contentType, result.bytes);
    if (!mediaType) throw refuse(rawUrl, 'the response is not an image');
    return { mediaType, data: result.bytes.toString('base64') };
  }
  throw refuse(rawUrl, `more than ${MAX_REDIRECTS} redirects`);
}
