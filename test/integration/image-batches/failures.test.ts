// Item failures and retries: content policy and unsupported sizes fail only their item and are never
// retried; transient upstream failures are retried with backoff (and fall back across targets) up to
// maxAttempts; the retry endpoint re-queues only the failed items. Plus submit-time validation.
import { expect } from 'chai';
import { OTHER_KEY } from '../../helpers/gateway.ts';
import { describeOnBackends } from './harness.ts';

describeOnBackends('image batches: failures and retries', (harness) => {
  it('one content-policy prompt and one unsupported size → partial_failed with codes; the others succeed', async () => {
    const { api } = await harness().start();
    const batch = await api.create({
      model: 'img-model',
      items: [
        { prompt: 'fine one', size: '64x64' },
        { prompt: 'not allowed [policy]', size: '64x64' },
        { prompt: 'wrong size', size: '128x128' },
        { prompt: 'fine two', size: '32x48' },
      ],
    });
    expect(batch.items[2]).to.deep.include({ status: 'failed' });
    expect(batch.items[2]!.error!.code).to.equal('unsupported_size');
    const done = await api.waitFor(batch.id);
    expect(done.status).to.equal('partial_failed');
    expect(done.request_counts).to.include({ succeeded: 2, failed: 2 });
    expect(done.items[1]!.error).to.deep.equal({ code: 'content_policy_violation', message: 'Your request was rejected as a result of our safety system.' });
    expect(done.items[2]!.error!.message).to.contain('128x128').and.contain('64x64');
    expect(done.items[1]!.url).to.equal(undefined);
    expect(harness().openai.callsFor('not allowed [policy]')).to.equal(1);
    expect(harness().openai.callsFor('wrong size')).to.equal(0);
    const missing = await api.fetchUrl(`https://x/v1/images/batches/${batch.id}/items/1/content`);
    expect(missing.status).to.equal(404);
  });

  it('a batch whose items all fail ends failed', async () => {
    const { api } = await harness().start();
    const batch = await api.create({ model: 'img-model', items: [{ prompt: 'a [policy]', size: '64x64' }, { prompt: 'b', size: '1x1' }] });
    const done = await api.waitFor(batch.id);
    expect(done.status).to.equal('failed');
    expect(done.archive_url).to.equal(undefined);
    const archive = await api.fetchUrl(`https://x/v1/images/batches/${batch.id}/archive`);
    expect(archive.status).to.equal(404);
  });

  it('retries a transient failure (503 twice, then 200) to success', async () => {
    const { api } = await harness().start();
    const batch = await api.create({ model: 'img-model', items: [{ prompt: 'flaky [flaky:2]', size: '64x64' }, { prompt: 'steady', size: '64x64' }] });
    const done = await api.waitFor(batch.id);
    expect(done.status).to.equal('completed');
    expect(harness().openai.callsFor('flaky [flaky:2]')).to.equal(3);
    expect(harness().openai.callsFor('steady')).to.equal(1);
  });

  it('gives up after maxAttempts: upstream_error for 5xx, upstream_timeout for timeouts', async () => {
    const { api } = await harness().start({ plugin: { maxAttempts: 3 } });
    const errors = await api.create({ model: 'img-model', items: [{ prompt: 'always down [flaky:99]', size: '64x64' }] });
    const timeouts = await api.create({ model: 'tight-img', items: [{ prompt: 'too slow [slow:600]', size: '64x64' }] });
    const [failed, timedOut] = [await api.waitFor(errors.id), await api.waitFor(timeouts.id)];
    expect(failed.status).to.equal('failed');
    expect(failed.items[0]!.error!.code).to.equal('upstream_error');
    expect(failed.items[0]!.error!.message).to.contain('after 3 attempts').and.contain('503');
    expect(timedOut.items[0]!.error!.code).to.equal('upstream_timeout');
    expect(harness().openai.callsFor('always down [flaky:99]')).to.equal(3);
    expect(harness().openai.callsFor('too slow [slow:600]')).to.equal(3);
  });

  it('falls back to the next target when the first cannot be reached', async () => {
    const { api } = await harness().start();
    const batch = await api.create({ model: 'fallback-img', items: [{ prompt: 'via the second target', size: '64x64' }] });
    const done = await api.waitFor(batch.id);
    expect(done.status).to.equal('completed');
    expect(harness().openai.callsFor('via the second target')).to.equal(1);
  });

  it('POST /retry re-queues only the failed items; succeeded ones are never generated again', async () => {
    const { api } = await harness().start({ plugin: { maxAttempts: 2 } });
    const batch = await api.create({
      model: 'img-model',
      items: [{ prompt: 'good', size: '64x64' }, { prompt: 'bad luck [flaky:3]', size: '64x64' }, { prompt: 'refused [policy]', size: '64x64' }],
    });
    const first = await api.waitFor(batch.id);
    expect(first.status).to.equal('partial_failed');
    expect(harness().openai.callsFor('bad luck [flaky:3]')).to.equal(2);
    const retried = await api.retry(batch.id);
    expect(retried.status).to.equal(200);
    expect(retried.body.items.map((item) => item.status)).to.deep.equal(['succeeded', 'queued', 'queued']);
    expect(retried.body.request_counts).to.include({ succeeded: 1, queued: 2, failed: 0 });
    const second = await api.waitFor(batch.id);
    expect(second.items.map((item) => item.error?.code ?? item.status)).to.deep.equal(['succeeded', 'succeeded', 'content_policy_violation']);
    expect(harness().openai.callsFor('good')).to.equal(1);
    expect(harness().openai.callsFor('bad luck [flaky:3]')).to.equal(4);
    expect(harness().openai.callsFor('refused [policy]')).to.equal(2);
  });

  it('validates the submission: 404 for models the key cannot use as images, 400 naming the offending field', async () => {
    const { api } = await harness().start({ plugin: { maxItems: 3 } });
    const item = { prompt: 'p', size: '64x64' };
    const cases: Array<[unknown, number, string | null, RegExp]> = [
      [{ model: 'nope', items: [item] }, 404, 'model', /nope/],
      [{ model: 'chat-model', items: [item] }, 404, 'model', /not an image model/],
      [{ model: 'img-model', items: [] }, 400, 'items', /at least one/],
      [{ model: 'img-model', items: [item, item, item, item] }, 400, 'items', /holds 4 items.*at most 3/],
      [{ model: 'img-model', items: [item, { prompt: 'p', size: '64*64' }] }, 400, 'items[1].size', /items\[1\]\.size must be <width>x<height>.*"64\*64"/],
      [{ model: 'img-model', items: [{ size: '64x64' }] }, 400, 'items[0].prompt', /items\[0\]\.prompt is required/],
      [{ model: 'img-model', items: [item], n: 2 }, 400, 'body', /unknown field "n"/],
      [[item], 400, null, /JSON object/],
    ];
    for (const [body, status, param, message] of cases) {
      const reply = await api.submit(body);
      expect(reply.status, JSON.stringify(body)).to.equal(status);
      expect(reply.body.error.message).to.match(message);
      expect(reply.body.error.param ?? null).to.equal(param);
    }
    const otherKey = await api.as(OTHER_KEY).submit({ model: 'img-model', items: [item] });
    expect(otherKey.status).to.equal(404);
    expect(otherKey.body.error.code).to.equal('model_not_found');
    expect(harness().openai.totalCalls()).to.equal(0);
  });
});
