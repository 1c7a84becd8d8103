// Gemini thought signatures kept for non-Gemini clients: bounded LRU, restore rules, stream recording.
import { expect } from 'chai';
import type { IRRequest } from '../../../../src/protocols/ir.ts';
import { createSignatureRecorder, recordResponseSignatures, restoreSignatures, SignatureCache, SKIP_SIGNATURE_SENTINEL } from '../../../../src/proxy/translate/signatures.ts';

function historyWith(ids: string[]): IRRequest {
  return {
    model: 'm',
    stream: false,
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: ids.map((id) => ({ type: 'tool_call' as const, id, name: 'f', arguments: '{}' })) },
    ],
  };
}

const signatureOf = (request: IRRequest, i: number): unknown => {
  const block = request.messages[1]!.content[i];
  return block?.type === 'tool_call' ? block.signature : undefined;
};

describe('thought-signature cache', () => {
  it('evicts the least recently used entry beyond its size', () => {
    const cache = new SignatureCache(2);
    cache.remember('a', 'sa');
    cache.remember('b', 'sb');
    expect(cache.recall('a')).to.equal('sa');
    cache.remember('c', 'sc');
    expect(cache.recall('b')).to.equal(undefined);
    expect(cache.recall('a')).to.equal('sa');
    expect(cache.size).to.equal(2);
  });

  it('restores a known signature, keeps a known-unsigned call unsigned, and sends the sentinel otherwise', () => {
    const cache = new SignatureCache(10);
    recordResponseSignatures(
      {
        id: 'r',
        model: 'm',
        created: 0,
        stopReason: 'tool_use',
        content: [
          { type: 'tool_call', id: 'signed', name: 'f', arguments: '{}', signature: { vendor: 'gemini', value: 'SIG' } },
          { type: 'tool_call', id: 'parallel', name: 'f', arguments: '{}' },
        ],
      },
      cache,
    );
    const request = historyWith(['signed', 'parallel', 'unknown']);
    restoreSignatures(request, cache);
    expect(signatureOf(request, 0)).to.deep.equal({ vendor: 'gemini', value: 'SIG' });
    expect(signatureOf(request, 1)).to.equal(undefined);
    expect(signatureOf(request, 2)).to.deep.equal({ vendor: 'gemini', value: SKIP_SIGNATURE_SENTINEL });
  });

  it('replaces another vendor’s signature rather than forwarding it', () => {
    const request = historyWith(['x']);
    const call = request.messages[1]!.content[0]!;
    if (call.type === 'tool_call') call.signature = { vendor: 'anthropic', value: 'ANTHROPIC' };
    restoreSignatures(request, new SignatureCache(4));
    expect(signatureOf(request, 0)).to.deep.equal({ vendor: 'gemini', value: SKIP_SIGNATURE_SENTINEL });
  });

  it('records signatures from stream events (on the block start or as a delta)', () => {
    const cache = new SignatureCache(10);
    const record = createSignatureRecorder(cache);
    record({ type: 'block_start', index: 0, block: { type: 'tool_call', id: 'one', name: 'f', signature: { vendor: 'gemini', value: 'S1' } } });
    record({ type: 'block_stop', index: 0 });
    record({ type: 'block_start', index: 1, block: { type: 'tool_call', id: 'two', name: 'f' } });
    record({ type: 'block_delta', index: 1, delta: { type: 'signature', signature: { vendor: 'gemini', value: 'S2' } } });
    record({ type: 'block_stop', index: 1 });
    expect(cache.recall('one')).to.equal('S1');
    expect(cache.recall('two')).to.equal('S2');
  });
});
