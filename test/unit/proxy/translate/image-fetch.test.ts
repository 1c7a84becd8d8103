// Image downloads for Gemini upstreams: size cap (declared and streamed), time limit, redirects, media type.
import type http from 'node:http';
import { expect } from 'chai';
import { GatewayError } from '../../../../src/errors/catalogue.ts';
import { fetchImage } from '../../../../src/proxy/translate/image-fetch.ts';
import type { ImageFetchOptions } from '../../../../src/proxy/translate/options.ts';
import { startFakeUpstream, type FakeUpstream } from '../../../helpers/fake-upstream.ts';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

function routes(res: http.ServerResponse, path: string): void {
  if (path === '/ok.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG_MAGIC);
  if (path === '/sniffed') return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(PNG_MAGIC);
  if (path === '/text') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
  if (path === '/declared-big') return void res.writeHead(200, { 'content-type': 'image/png', 'content-length': '5000' }).end(Buffer.alloc(5000));
  if (path === '/streamed-big') {
    res.writeHead(200, { 'content-type': 'image/png' });
    for (let i = 0; i < 10; i += 1) res.write(Buffer.alloc(500));
    return void res.end();
  }
  if (path === '/redirect') return void res.writeHead(302, { location: '/ok.png' }).end();
  if (path === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
  if (path === '/hang') return; // never answers
  res.writeHead(404).end();
}

describe('image URL download', () => {
  let server: FakeUpstream;
  const options: ImageFetchOptions = { maxBytes: 1024, timeoutMs: 300, allowPrivateNetworks: true, maxImages: 4 };
  before(async () => {
    server = await startFakeUpstream((req, res) => routes(res, req.path));
  });
  after(() => server.close());

  const fail = (url: string, opts = options): Promise<GatewayError> =>
    fetchImage(url, opts, new AbortController().signal).then(
      () => {
        throw new Error('expected a failure');
      },
      (error: unknown) => error as GatewayError,
    );

  it('downloads an image as base64 with its media type', async () => {
    const image = await fetchImage(`${server.url}/ok.png`, options, new AbortController().signal);
    expect(image).to.deep.equal({ mediaType: 'image/png', data: PNG_MAGIC.toString('base64') });
  });

  it('recognises an image by its bytes when the server says octet-stream', async () => {
    expect((await fetchImage(`${server.url}/sniffed`, options, new AbortController().signal)).mediaType).to.equal('image/png');
  });

  it('follows a redirect, but not forever', async () => {
    expect((await fetchImage(`${server.url}/redirect`, options, new AbortController().signal)).mediaType).to.equal('image/png');
    expect((await fail(`${server.url}/loop`)).message).to.match(/more than 3 redirects/);
  });

  it('refuses what is not an image', async () => {
    expect((await fail(`${server.url}/text`)).message).to.match(/not an image/);
  });

  it('refuses a body over maxBytes, declared or streamed', async () => {
    for (const path of ['/declared-big', '/streamed-big']) {
      const error = await fail(`${server.url}${path}`);
      expect(error).to.be.instanceOf(GatewayError);
      expect(error.status).to.equal(400);
      expect(error.message).to.match(/larger than 1024 bytes/);
    }
  });

  it('gives up after timeoutMs', async () => {
    const started = performance.now();
    expect((await fail(`${server.url}/hang`)).message).to.match(/timed out/);
    expect(performance.now() - started).to.be.lessThan(2000);
  });

  it('refuses loopback addresses unless allowed, before connecting', async () => {
    const before = server.requests.length;
    const error = await fail(`${server.url}/ok.png`, { ...options, allowPrivateNetworks: false });
    expect(error.message).to.match(/loopback\/private\/link-local/);
    expect(server.requests.length).to.equal(before);
  });

  it('refuses other schemes', async () => {
    expect((await fail('ftp://example.com/cat.png')).message).to.match(/only http and https/);
    expect((await fail('not a url')).message).to.match(/not a valid URL/);
  });
});
