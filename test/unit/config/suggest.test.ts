import { expect } from 'chai';
import { closest, didYouMean, editDistance } from '../../../src/config/suggest.ts';

describe('config/suggest', () => {
  it('counts insertions, deletions, substitutions and adjacent transpositions as one edit', () => {
    expect(editDistance('openai', 'openai')).to.equal(0);
    expect(editDistance('opnai', 'openai')).to.equal(1);
    expect(editDistance('prot', 'port')).to.equal(1);
    expect(editDistance('gemin', 'gemini')).to.equal(1);
    expect(editDistance('', 'abc')).to.equal(3);
    expect(editDistance('kitten', 'sitting')).to.equal(3);
  });

  it('suggests the closest candidate within a third of the length, ignoring case', () => {
    expect(closest('OpenAI', ['anthropic', 'openai'])).to.equal('openai');
    expect(closest('logLvl', ['logLevel', 'host'])).to.equal('logLevel');
    expect(closest('zzz', ['openai', 'gemini'])).to.equal(undefined);
    expect(didYouMean('hots', ['host', 'port'])).to.equal(' (did you mean "host"?)');
    expect(didYouMean('completely-different', ['host'])).to.equal('');
  });
});
