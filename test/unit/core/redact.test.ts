import { expect } from 'chai';
import { REDACTED, redactHeaders, redactUrl } from '../../../src/index.ts';

describe('core/redact', () => {
  it('redacts every credential header, case-insensitively, and leaves the rest', () => {
    const headers = {
      Authorization: 'Bearer sk-1',
      'x-api-key': 'sk-ant-2',
      'X-Goog-Api-Key': 'AIza-3',
      'api-key': 'azure-4',
      cookie: 'session=5',
      'proxy-authorization': 'Basic 6',
      'anthropic-version': '2023-06-01',
      'content-length': 42,
      accept: ['a', 'b'],
      absent: undefined,
    };
    expect(redactHeaders(headers)).to.deep.equal({
      Authorization: REDACTED,
      'x-api-key': REDACTED,
      'X-Goog-Api-Key': REDACTED,
      'api-key': REDACTED,
      cookie: REDACTED,
      'proxy-authorization': REDACTED,
      'anthropic-version': '2023-06-01',
      'content-length': 42,
      accept: ['a', 'b'],
      absent: undefined,
    });
    expect(headers.Authorization).to.equal('Bearer sk-1');
  });

  it('redacts the key query parameter in paths, URLs and messages', () => {
    expect(redactUrl('/v1beta/models?key=AIza-secret')).to.equal(`/v1beta/models?key=${REDACTED}`);
    expect(redactUrl('https://h/v1beta/models/m:streamGenerateContent?alt=sse&KEY=AIza-secret#x')).to.equal(
      `https://h/v1beta/models/m:streamGenerateContent?alt=sse&KEY=${REDACTED}#x`,
    );
    expect(redactUrl('GET /v1beta/models?key=abc&pageSize=2 failed')).to.equal(`GET /v1beta/models?key=${REDACTED}&pageSize=2 failed`);
  });

  it('leaves look-alike parameters and plain paths alone', () => {
    expect(redactUrl('/v1/models?monkey=1&keys=2')).to.equal('/v1/models?monkey=1&keys=2');
    expect(redactUrl('/v1/chat/completions')).to.equal('/v1/chat/completions');
  });

  it('hides the password of a connection URL', () => {
    expect(redactUrl('redis://:hunter2@127.0.0.1:6379/0')).to.equal(`redis://:${REDACTED}@127.0.0.1:6379/0`);
    expect(redactUrl('redis://127.0.0.1:6379')).to.equal('redis://127.0.0.1:6379');
  });
});
