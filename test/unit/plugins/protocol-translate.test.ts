// The protocol-translate plugin: installs the translator; its options are validated (defaults applied) at start.
import { expect } from 'chai';
import plugin from '../../../plugins/protocol-translate/index.ts';
import { createHarness } from '../../helpers/plugin-harness.ts';

describe('protocol-translate plugin', () => {
  it('installs a translator with default options', async () => {
    const harness = createHarness();
    await harness.use(plugin);
    expect(harness.translator).to.have.property('handle').that.is.a('function');
  });

  it('accepts the documented options', async () => {
    const harness = createHarness();
    await harness.use(plugin, { imageFetch: { maxBytes: 1024, timeoutMs: 500, allowPrivateNetworks: true, maxImages: 2 }, thoughtSignatureCacheSize: 50 });
    expect(harness.translator).not.to.equal(undefined);
  });

  it('rejects unknown and mistyped options, naming each', async () => {
    const error = await createHarness()
      .use(plugin, { imageFetch: { maxBytes: '5mb', allowPrivate: true }, signatureCache: 1 })
      .then(() => undefined, (e: unknown) => e as Error);
    expect(error?.message).to.match(/imageFetch\.maxBytes: must be integer/);
    expect(error?.message).to.match(/unknown option "allowPrivate"/);
    expect(error?.message).to.match(/unknown option "signatureCache"/);
  });
});
