// Real upstream captures (the golden fixtures) replayed through the translated path for every client protocol
// that is not the upstream's own: the emitted stream passes the client protocol's grammar checker, and read
// back with that protocol's decoder it carries the same text, the same tool calls (ids kept) and, for a
// failed or cut capture, an error — never a clean finish.
import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import { codecFor } from '../../../src/protocols/index.ts';
import type { ClientProtocol, IRBlock, IRResponse, IRStreamEvent } from '../../../src/protocols/ir.ts';
import { parseSse } from '../../helpers/grammar/sse.ts';
import { sendJson, sendSse } from '../../helpers/fake-upstream.ts';
import { REPO_ROOT } from '../../helpers/gateway.ts';
import { UPSTREAM_TYPES, type UpstreamType } from './fake-providers.ts';
import { CLIENT_PROTOCOLS, rawRequest } from './clients.ts';
import { grammarViolations, isNative, modelFor, startWorld, type World } from './harness.ts';

const PROTOCOL: Record<UpstreamType, ClientProtocol> = { openai: 'chat', anthropic: 'messages', gemini: 'gemini' };
const fixtureDir = (type: UpstreamType, kind: 'streams' | 'responses'): string => `${REPO_ROOT}test/fixtures/${PROTOCOL[type]}/${kind}/`;
const fixtures = (type: UpstreamType, kind: 'streams' | 'responses'): string[] => readdirSync(fixtureDir(type, kind)).sort();

interface Summary {
  text: string;
  tools: Array<{ id: string; name: string; args: unknown }>;
  failed: boolean;
}

function summarizeEvents(events: IRStreamEvent[]): Summary {
  const summary: Summary = { text: '', tools: [], failed: false };
  const args = new Map<number, { id: string; name: string; json: string }>();
  for (const event of events) {
    if (event.type === 'block_delta' && event.delta.type === 'text') summary.text += event.delta.text;
    if (event.type === 'block_start' && event.block.type === 'tool_call') args.set(event.index, { id: event.block.id, name: event.block.name, json: '' });
    if (event.type === 'block_delta' && event.delta.type === 'arguments') {
      const call = args.get(event.index);
      if (call) call.json += event.delta.partialJson;
    }
    if (event.type === 'error') summary.failed = true;
  }
  summary.tools = [...args.values()].map((c) => ({ id: c.id, name: c.name, args: JSON.parse(c.json || '{}') as unknown }));
  return summary;
}

function decodeStream(protocol: ClientProtocol, text: string, jsonArray = false): Summary {
  const decoder = codecFor(protocol).createStreamDecoder();
  const frames = jsonArray ? (JSON.parse(text) as unknown[]).map((chunk) => ({ data: JSON.stringify(chunk) })) : parseSse(text);
  return summarizeEvents([...frames.flatMap((frame) => decoder.push(frame)), ...decoder.end()]);
}

function summarizeResponse(response: IRResponse): Omit<Summary, 'failed'> {
  const calls = response.content.filter((b): b is Extract<IRBlock, { type: 'tool_call' }> => b.type === 'tool_call');
  return {
    text: response.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''),
    tools: calls.map((c) => ({ id: c.id, name: c.name, args: JSON.parse(c.arguments || '{}') as unknown })),
  };
}

/** Gemini answers tool calls without ids; the gateway invents them, so only name and arguments are compared. */
function comparable(type: UpstreamType, tools: Summary['tools']): unknown[] {
  return type === 'gemini' ? tools.map(({ name, args }) => ({ name, args })) : tools;
}

function errorStatus(body: Record<string, unknown>): number {
  const error = (body.error ?? {}) as Record<string, unknown>;
  if (typeof error.code === 'number') return error.code;
  const byType: Record<string, number> = { overloaded_error: 529, rate_limit_error: 429, invalid_request_error: 400, authentication_error: 401 };
  return byType[String(error.type)] ?? 500;
}

describe('golden upstream captures through the translated path', function () {
  let world: World;
  before(async () => {
    world = await startWorld();
    for (const type of UPSTREAM_TYPES) {
      world.providers[type].upstream.setHandler(async (req, res) => {
        const name = /FIXTURE:([\w.-]+)/.exec(JSON.stringify(req.body))?.[1] ?? '';
        if (name.endsWith('.txt')) {
          const frames = readFileSync(fixtureDir(type, 'streams') + name, 'utf8').split(/(?<=\n\n)/);
          return sendSse(res, frames);
        }
        const body = JSON.parse(readFileSync(fixtureDir(type, 'responses') + name, 'utf8')) as Record<string, unknown>;
        return name.startsWith('error-') ? sendJson(res, errorStatus(body), body) : sendJson(res, 200, body);
      });
    }
  });
  after(() => world.close());

  for (const type of UPSTREAM_TYPES) {
    for (const protocol of CLIENT_PROTOCOLS.filter((p) => !isNative(p, type))) {
      for (const file of fixtures(type, 'streams')) {
        const formats = protocol === 'gemini' ? [false, true] : [false];
        for (const jsonArray of formats) {
          it(`stream ${PROTOCOL[type]}/${file} → ${protocol} client${jsonArray ? ' (JSON array)' : ''}`, async () => {
            const expected = decodeStream(PROTOCOL[type], readFileSync(fixtureDir(type, 'streams') + file, 'utf8'));
            const { url, init } = rawRequest(world.gateway.url, protocol, modelFor(type), `FIXTURE:${file}`, true);
            const res = await fetch(jsonArray ? url.replace('?alt=sse', '') : url, init);
            const text = await res.text();
            const contentType = res.headers.get('content-type') ?? '';
            if (expected.failed && res.status !== 200) return; // an error before any output is an HTTP error
            expect(res.status).to.equal(200);
            expect(contentType).to.include(jsonArray ? 'application/json' : 'text/event-stream');
            expect(grammarViolations(protocol, { contentType, text }), text).to.deep.equal([]);
            const got = decodeStream(protocol, text, jsonArray);
            expect(got.text).to.equal(expected.text);
            expect(comparable(type, got.tools)).to.deep.equal(comparable(type, expected.tools));
            expect(got.failed, 'ends in an error exactly when the capture does').to.equal(expected.failed);
          });
        }
      }

      for (const file of fixtures(type, 'responses')) {
        it(`response ${PROTOCOL[type]}/${file} → ${protocol} client`, async () => {
          const raw = JSON.parse(readFileSync(fixtureDir(type, 'responses') + file, 'utf8')) as Record<string, unknown>;
          const { url, init } = rawRequest(world.gateway.url, protocol, modelFor(type), `FIXTURE:${file}`);
          const res = await fetch(url, init);
          const body = (await res.json()) as Record<string, unknown>;
          if (file.startsWith('error-')) {
            const status = errorStatus(raw);
            expect(res.status).to.equal(status === 529 && protocol !== 'messages' ? 503 : status);
            expect(JSON.stringify(body)).to.include(String(((raw.error ?? {}) as Record<string, unknown>).message).slice(0, 30));
            return;
          }
          expect(res.status, JSON.stringify(body)).to.equal(200);
          const expected = summarizeResponse(codecFor(PROTOCOL[type]).decodeResponse(raw));
          const got = summarizeResponse(codecFor(protocol).decodeResponse(body));
          expect(got.text).to.equal(expected.text);
          expect(comparable(type, got.tools)).to.deep.equal(comparable(type, expected.tools));
        });
      }
    }
  }
});
