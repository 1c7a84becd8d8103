// Fixture access for the Chat and Responses codec tests, which name fixtures without `.json` and spread the
// bodies they load. Running codecs is in test/helpers/codec.ts.
import { fixtureJson as readFixture } from '../../helpers/fixtures.ts';

export function fixtureJson(protocol: 'chat' | 'responses', kind: 'requests' | 'responses', name: string): Record<string, unknown> {
  return readFixture(protocol, kind, `${name}.json`) as Record<string, unknown>;
}
