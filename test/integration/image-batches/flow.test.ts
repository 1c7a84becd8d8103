// The happy path through real HTTP: submit → poll → per-item download → ZIP download, on an OpenAI-type
// and a Gemini-type upstream, plus the listing.
import { expect } from 'chai';
import { expectedPng } from './fake-image-upstreams.ts';
import { describeOnBackends, PUBLIC_URL } from './harness.ts';
import type { BatchJson } from './batch-client.ts';
import { readZip } from './zip.ts';

interface Manifest {
  batch_id: string;
  status: string;
  items: Array<{ index: number; custom_id?: string; prompt: string; size: string; status: string; file?: string; error?: { code: string } }>;
}

describeOnBackends('image batches: submit, poll, download', (harness) => {
  it('runs a batch end to end: 202, Retry-After while running, absolute URLs, images, ETag/304 and a ZIP with a manifest', async () => {
    const { api } = await harness().start();
    harness().openai.latencyMs = 150;
    const submitted = await api.submit(
      {
        model: 'img-model',
        items: [
          { prompt: 'A red fox in the snow', size: '64x64', custom_id: 'cover-fox' },
          { prompt: 'Two owls, at night!', size: '32x48' },
          { prompt: 'Lighthouse', size: '48x32', custom_id: 'a/b:c' },
        ],
        metadata: { campaign: 'spring' },
      },
      { 'x-request-id': 'flow-1' },
    );
    expect(submitted.status).to.equal(202);
    const batch = submitted.body;
    expect(batch.id).to.match(/^batch_/);
    expect(batch).to.include({ object: 'image.batch', model: 'img-model', status: 'queued' });
    expect(batch.metadata).to.deep.equal({ campaign: 'spring' });
    expect(batch.request_counts).to.deep.equal({ total: 3, queued: 3, running: 0, succeeded: 0, failed: 0, cancelled: 0 });
    expect(batch.items.map((item) => [item.index, item.custom_id, item.status])).to.deep.equal([[0, 'cover-fox', 'queued'], [1, undefined, 'queued'], [2, 'a/b:c', 'queued']]);
    expect(submitted.headers.get('retry-after')).to.equal('3');
    expect(submitted.headers.get('location')).to.equal(`${PUBLIC_URL}/v1/images/batches/${batch.id}`);

    const running = await api.get(batch.id);
    expect(running.headers.get('retry-after')).to.equal('3');
    const done = await api.waitFor(batch.id);
    expect(done.status).to.equal('completed');
    expect(done.completed_at).to.be.a('number');
    expect(done.request_counts).to.include({ total: 3, succeeded: 3 });
    expect((await api.get(batch.id)).headers.get('retry-after')).to.equal(null);
    expect(done.archive_url).to.equal(`${PUBLIC_URL}/v1/images/batches/${batch.id}/archive`);

    for (const item of done.items) {
      expect(item.url).to.equal(`${PUBLIC_URL}/v1/images/batches/${batch.id}/items/${item.index}/content`);
      expect(item.expires_at).to.be.greaterThan(done.created_at + 6 * 86400);
      const response = await api.fetchUrl(item.url!);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.equal('image/png');
      expect(response.headers.get('content-length')).to.equal(String(bytes.length));
      expect(bytes.equals(expectedPng(item.prompt, item.size))).to.equal(true);
      const etag = response.headers.get('etag');
      expect(etag).to.match(/^"[0-9a-f]+"$/);
      const again = await api.fetchUrl(item.url!, { 'if-none-match': etag! });
      expect(again.status).to.equal(304);
    }

    const sent = harness().openai.upstream.requests.map((request) => request.body as Record<string, unknown>);
    expect(sent).to.have.length(3);
    expect(sent.find((body) => body.prompt === 'Two owls, at night!')).to.deep.equal({ model: 'gpt-image-1', prompt: 'Two owls, at night!', size: '32x48', n: 1 });
    expect(harness().openai.upstream.requests[0]!.headers.authorization).to.equal('Bearer sk-upstream');

    const archive = await api.fetchUrl(done.archive_url!);
    expect(archive.status).to.equal(200);
    expect(archive.headers.get('content-type')).to.equal('application/zip');
    expect(archive.headers.get('content-disposition')).to.contain(`${batch.id}.zip`);
    const entries = await readZip(Buffer.from(await archive.arrayBuffer()));
    expect([...entries.keys()]).to.deep.equal(['0-cover-fox.png', '1-two-owls-at-night.png', '2-a_b_c.png', 'manifest.json']);
    expect(entries.get('1-two-owls-at-night.png')!.equals(expectedPng('Two owls, at night!', '32x48'))).to.equal(true);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8')) as Manifest;
    expect(manifest).to.include({ batch_id: batch.id, status: 'completed' });
    expect(manifest.items[0]).to.deep.equal({ index: 0, custom_id: 'cover-fox', prompt: 'A red fox in the snow', size: '64x64', status: 'succeeded', file: '0-cover-fox.png' });
  });

  it('generates on a Gemini-type upstream: IMAGE modality, nearest aspect ratio, inlineData; safety blocks fail the item', async () => {
    const { api } = await harness().start();
    const batch = await api.create({
      model: 'gem-image',
      items: [
        { prompt: 'wide landscape [size:48x32]', size: '48x32' },
        { prompt: 'something unsafe [policy]', size: '64x64' },
        { prompt: 'forbidden [blocked]', size: '64x64' },
      ],
    });
    const done = await api.waitFor(batch.id);
    expect(done.status).to.equal('partial_failed');
    expect(done.items.map((item) => item.error?.code ?? item.status)).to.deep.equal(['succeeded', 'content_policy_violation', 'content_policy_violation']);
    const request = harness().gemini.upstream.requests.find((r) => JSON.stringify(r.body).includes('wide landscape'))!;
    expect(request.path).to.equal('/v1beta/models/gemini-2.5-flash-image:generateContent');
    expect(request.headers['x-goog-api-key']).to.equal('gemini-upstream');
    expect(request.body).to.deep.equal({
      contents: [{ role: 'user', parts: [{ text: 'wide landscape [size:48x32]' }] }],
      generationConfig: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '3:2' } },
    });
    const image = await api.fetchUrl(done.items[0]!.url!);
    expect(Buffer.from(await image.arrayBuffer()).equals(expectedPng('wide landscape [size:48x32]', '48x32'))).to.equal(true);
    expect(harness().gemini.callsFor('something unsafe [policy]')).to.equal(1);
  });

  it('downloads at once an image the upstream returns as a URL', async () => {
    const { api } = await harness().start();
    const batch = await api.create({ model: 'img-model', items: [{ prompt: 'served as a link [url]', size: '64x64' }] });
    const done = await api.waitFor(batch.id);
    expect(done.status).to.equal('completed');
    const image = await api.fetchUrl(done.items[0]!.url!);
    expect(Buffer.from(await image.arrayBuffer()).equals(expectedPng('served as a link [url]', '64x64'))).to.equal(true);
    expect(harness().openai.upstream.requests.map((r) => r.method)).to.deep.equal(['POST', 'GET']);
  });

  it("lists the caller's batches newest first, paginated with limit and after", async () => {
    const { api } = await harness().start();
    const ids: string[] = [];
    for (let n = 0; n < 3; n += 1) ids.push((await api.create({ model: 'img-model', items: [{ prompt: `list ${n}`, size: '64x64' }] })).id);
    const first = await api.call<{ object: string; data: BatchJson[]; has_more: boolean; first_id: string; last_id: string }>('GET', '/v1/images/batches?limit=2');
    expect(first.status).to.equal(200);
    expect(first.body.object).to.equal('list');
    expect(first.body.data.map((b) => b.id)).to.deep.equal([ids[2], ids[1]]);
    expect(first.body).to.include({ has_more: true, first_id: ids[2], last_id: ids[1] });
    const second = await api.call<{ data: BatchJson[]; has_more: boolean }>('GET', `/v1/images/batches?limit=2&after=${first.body.last_id}`);
    expect(second.body.data.map((b) => b.id)).to.deep.equal([ids[0]]);
    expect(second.body.has_more).to.equal(false);
    const bad = await api.call<{ error: { param: string } }>('GET', '/v1/images/batches?limit=0');
    expect(bad.status).to.equal(400);
    expect(bad.body.error.param).to.equal('limit');
  });
});
