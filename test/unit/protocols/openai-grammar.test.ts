// The Chat and Responses stream grammar checkers: every fixture is judged, and broken streams are rejected.
import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { checkChatStream } from '../../helpers/grammar/chat.ts';
import { checkResponsesStream } from '../../helpers/grammar/responses.ts';
import { parseSse } from '../../helpers/grammar/sse.ts';
import { fixtureText } from '../../helpers/fixtures.ts';

type Frame = { event?: string; data: string };

function frames(protocol: 'chat' | 'responses', name: string): Frame[] {
  return parseSse(fixtureText(protocol, 'streams', name));
}

function serialise(list: Frame[]): string {
  return list.map((f) => `${f.event === undefined ? '' : `event: ${f.event}\n`}data: ${f.data}\n\n`).join('');
}

/** Rewrites the JSON data of frame `n`. */
function edit(list: Frame[], n: number, change: (data: Record<string, unknown>) => void): Frame[] {
  return list.map((f, i) => {
    if (i !== n) return f;
    const data = JSON.parse(f.data) as Record<string, unknown>;
    change(data);
    return { ...f, data: JSON.stringify(data) };
  });
}

function firstDelta(data: Record<string, unknown>): Record<string, unknown> {
  return (data['choices'] as Array<{ delta: Record<string, unknown> }>)[0]!.delta;
}

function firstToolCall(data: Record<string, unknown>): Record<string, unknown> & { function: Record<string, unknown> } {
  return (firstDelta(data)['tool_calls'] as Array<Record<string, unknown> & { function: Record<string, unknown> }>)[0]!;
}

/** Renumbers sequence_number 0,1,2… so that a test isolates the violation it is about. */
function renumber(list: Frame[]): Frame[] {
  return list.map((f, i) => {
    if (f.data === '[DONE]') return f;
    const data = JSON.parse(f.data) as Record<string, unknown>;
    return { ...f, data: JSON.stringify({ ...data, sequence_number: i }) };
  });
}

const streamsDir = (protocol: string): string[] => readdirSync(new URL(`../../fixtures/${protocol}/streams/`, import.meta.url));

describe('stream grammar: fixtures', () => {
  for (const name of streamsDir('chat')) {
    it(`chat/${name} ${name === 'cut.txt' ? 'is rejected (cut on purpose)' : 'is valid'}`, () => {
      const violations = checkChatStream(fixtureText('chat', 'streams', name));
      if (name === 'cut.txt') expect(violations).to.deep.equal(['stream ended without [DONE] or an error object']);
      else expect(violations).to.deep.equal([]);
    });
  }
  for (const name of streamsDir('responses')) {
    it(`responses/${name} is valid`, () => expect(checkResponsesStream(fixtureText('responses', 'streams', name))).to.deep.equal([]));
  }
});

describe('stream grammar: the Chat checker rejects broken streams', () => {
  const text = (): Frame[] => frames('chat', 'text-usage.txt');
  const tools = (): Frame[] => frames('chat', 'tool-calls-parallel.txt');
  const last = (list: Frame[]): number => list.length - 1;
  const cases: Array<[string, () => Frame[] | string, RegExp]> = [
    ['no [DONE]', () => text().slice(0, -1), /without \[DONE\]/],
    ['two [DONE]', () => [...text(), { data: '[DONE]' }], /after \[DONE\]/],
    ['an event: line', () => text().map((f, i) => (i === 1 ? { ...f, event: 'message' } : f)), /no "event:" line/],
    ['data that is not JSON', () => [...text().slice(0, 2), { data: '{"id":' }, ...text().slice(2)], /neither JSON nor \[DONE\]/],
    ['an id that changes', () => edit(text(), 3, (d) => (d['id'] = 'chatcmpl-other')), /id changed/],
    ['no role on the first chunk', () => edit(text(), 0, (d) => delete firstDelta(d)['role']), /first chunk must carry delta.role/],
    ['usage chunk before the finish chunk', () => { const l = text(); const n = last(l); return [...l.slice(0, n - 3), l[n - 1]!, l[n - 2]!, l[n]!]; }, /usage chunk before the finish chunk/],
    ['content in the finish chunk', () => edit(text(), 12, (d) => (firstDelta(d)['content'] = 'x')), /empty delta/],
    ['usage not null on a choice chunk', () => edit(text(), 2, (d) => (d['usage'] = { prompt_tokens: 1 })), /usage must be null/],
    ['a tool index that skips ahead', () => edit(tools(), 7, (d) => (firstToolCall(d)['index'] = 2)), /skips ahead/],
    ['id/name repeated on a later tool delta', () => edit(tools(), 2, (d) => (firstToolCall(d)['id'] = 'call_x')), /repeats id\/type\/name/],
    ['first tool delta without a name', () => edit(tools(), 0, (d) => delete firstToolCall(d).function['name']), /no function.name/],
    ['[DONE] after an error object', () => `${fixtureText('chat', 'streams', 'error-midstream.txt')}data: [DONE]\n\n`, /after the error object/],
    ['an empty stream', () => '', /no events/],
  ];
  for (const [name, make, pattern] of cases) {
    it(name, () => {
      const made = make();
      const violations = checkChatStream(typeof made === 'string' ? made : serialise(made));
      expect(violations.join('\n')).to.match(pattern);
    });
  }

  it('requireUsage flags a missing usage chunk', () => {
    const noUsage = frames('chat', 'interleaved-tool-calls.txt');
    expect(checkChatStream(serialise(noUsage), { requireUsage: true })).to.deep.equal(['include_usage stream without a usage chunk']);
  });
});

describe('stream grammar: the Responses checker rejects broken streams', () => {
  const text = (): Frame[] => frames('responses', 'text.txt');
  const fn = (): Frame[] => frames('responses', 'function-call.txt');
  const cases: Array<[string, () => Frame[], RegExp]> = [
    ['a missing event: line', () => text().map((f, i) => (i === 3 ? { data: f.data } : f)), /missing "event:" line/],
    ['an event name that differs from data.type', () => text().map((f, i) => (i === 3 ? { ...f, event: 'response.output_text.done' } : f)), /differs from the event name/],
    ['a sequence_number gap', () => [...text().slice(0, 4), ...text().slice(5)], /sequence_number/],
    ['not starting with response.created', () => text().slice(1), /first event must be response.created/],
    ['no terminal event', () => text().slice(0, -1), /without a terminal event/],
    ['events after the terminal event', () => [...text(), { event: 'response.in_progress', data: text()[1]!.data }], /event after response.completed/],
    ['a delta into a closed part', () => { const l = text(); return [...l.slice(0, 16), l[5]!, ...l.slice(16)]; }, /no open part/],
    ['done text that differs from the deltas', () => edit(text(), 14, (d) => (d['text'] = 'something else')), /done text differs/],
    ['an output_index that skips', () => edit(text(), 2, (d) => (d['output_index'] = 1)), /output_index 1, expected 0/],
    ['a delta with the wrong item_id', () => edit(text(), 5, (d) => (d['item_id'] = 'msg_other')), /do not match the open item/],
    ['a terminal event without usage', () => edit(text(), 17, (d) => ((d['response'] as Record<string, unknown>)['usage'] = null)), /without usage/],
    ['a terminal output that omits a streamed item', () => edit(text(), 17, (d) => ((d['response'] as Record<string, unknown>)['output'] = [])), /does not list the streamed items/],
    ['a response object missing a required field', () => edit(text(), 0, (d) => delete (d['response'] as Record<string, unknown>)['tools']), /response.tools missing/],
    ['function arguments that differ from the deltas', () => edit(fn(), 10, (d) => (d['arguments'] = '{}')), /arguments differ/],
    ['an item opened while another is open', () => { const l = fn(); return [...l.slice(0, 3), ...l.slice(12)]; }, /still open/],
  ];
  for (const [name, make, pattern] of cases) {
    it(name, () => {
      const list = name === 'a sequence_number gap' ? make() : renumber(make());
      expect(checkResponsesStream(serialise(list)).join('\n')).to.match(pattern);
    });
  }
});
