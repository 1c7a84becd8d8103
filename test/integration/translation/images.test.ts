// Image input across the matrix: base64 reaches every upstream as bytes; an https-style URL reaches URL-capable
// upstreams (OpenAI, Anthropic) as a URL and Gemini upstreams as bytes the gateway downloaded — only within
// its limits, and never from loopback/private addresses unless the operator allows it.
import { expect } from 'chai';
import { solidPng } from '../../../src/providers/mock/png.ts';
import { sendJson, startFakeUpstream, type FakeUpstream } from '../../helpers/fake-upstream.ts';
import { UPSTREAM_TYPES } from './fake-providers.ts';
import { CLIENT_PROTOCOLS, createDriver } from './clients.ts';
import { checkRecordedStreams, isNative, modelFor, startWorld, type World } from './harness.ts';
import { TEST_KEY } from '../../helpers/gateway.ts';

const PNG = solidPng(4, 4, [200, 30, 30]);
const PNG_B64 = PNG.toString('base64');

async function startImageServer(): Promise<FakeUpstream> {
  return startFakeUpstream((req, res) => {
    if (req.path === '/cat.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(PNG.length) });
      res.end(PNG);
      return;
    }
    if (req.path === '/big.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.alloc(4096, 1));
      return;
    }
    sendJson(res, 404, { error: 'no such image' });
  });
}

describe('translation matrix: image input', function () {
  let world: World;
  let images: FakeUpstream;
  before(async () => {
    [world, images] = await Promise.all([startWorld(), startImageServer()]);
  });
  afterEach(() => checkRecordedStreams(world));
  after(() => Promise.all([world.close(), images.close()]));

  for (const protocol of CLIENT_PROTOCOLS) {
    for (const type of UPSTREAM_TYPES) {
      it(`base64: ${protocol} client → ${type} upstream`, async () => {
        const answer = await world.driver(protocol).image(modelFor(type), { kind: 'base64', mediaType: 'image/png', data: PNG_B64 }, 'Describe. SCENARIO:image');
        expect(answer).to.equal(`saw 1 image(s): image/png:${PNG_B64.length}`);
      });

      it(`URL: ${protocol} client → ${type} upstream`, async () => {
        const url = `${images.url}/cat.png`;
        const before = images.requests.length;
        const answer = await world.driver(protocol).image(modelFor(type), { kind: 'url', url }, 'Describe. SCENARIO:image');
        const inlined = type === 'gemini' && !isNative(protocol, type);
        expect(answer).to.equal(inlined ? `saw 1 image(s): image/png:${PNG_B64.length}` : `saw 1 image(s): url:${url}`);
        expect(images.requests.length - before, 'downloads by the gateway').to.equal(inlined ? 1 : 0);
      });
    }
  }
});

describe('image URL fetching limits', function () {
  let world: World;
  let images: FakeUpstream;
  before(async () => {
    [world, images] = await Promise.all([startWorld({ imageFetch: { maxBytes: 1024 } }), startImageServer()]);
  });
  after(() => Promise.all([world.close(), images.close()]));

  async function askGemini(url: string): Promise<{ status: number; body: { error?: { message?: string; type?: string } } }> {
    const res = await fetch(`${world.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: modelFor('gemini'), messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image_url', image_url: { url } }] }] }),
    });
    return { status: res.status, body: (await res.json()) as { error?: { message?: string } } };
  }

  for (const host of ['127.0.0.1', 'localhost', '[::1]']) {
    it(`refuses to fetch from ${host} (a loopback address) with a 400 in the client's shape`, async () => {
      const port = new URL(images.url).port;
      const before = images.requests.length;
      const { status, body } = await askGemini(`http://${host}:${port}/cat.png`);
      expect(status).to.equal(400);
      expect(body.error?.type).to.equal('invalid_request_error');
      expect(body.error?.message).to.match(/loopback\/private\/link-local/);
      expect(images.requests.length).to.equal(before);
      expect(world.providers.gemini.upstream.requests.filter((r) => JSON.stringify(r.body).includes('hi'))).to.have.length(0);
    });
  }

  it('refuses non-http schemes', async () => {
    const { status, body } = await askGemini('file:///etc/passwd');
    expect(status).to.equal(400);
    expect(body.error?.message).to.match(/image_url|only http/);
  });

  it('refuses images over maxBytes (the Anthropic SDK sees a 400 in its own shape)', async () => {
    const guarded = await startWorld({ imageFetch: { maxBytes: 1024, allowPrivateNetworks: true } });
    try {
      const error = await createDriver('messages', guarded.gateway.url)
        .image(modelFor('gemini'), { kind: 'url', url: `${images.url}/big.png` }, 'SCENARIO:image')
        .then(() => undefined, (e: unknown) => e as { status?: number; error?: { error?: { type?: string; message?: string } } });
      expect(error?.status).to.equal(400);
      expect(error?.error?.error?.type).to.equal('invalid_request_error');
      expect(error?.error?.error?.message).to.match(/larger than 1024 bytes/);
    } finally {
      await guarded.close();
    }
  });
});
