// The four official SDKs as gateway clients, behind one small driver interface so the suite can loop over
// the client × upstream matrix. Each SDK gets a recording fetch: every stream the gateway emits is kept
// (teed, the SDK still reads it live) so the suite can run that protocol's grammar checker over it.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, type Content, type Part } from '@google/genai';
import { expect } from 'chai';
import OpenAI from 'openai';
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import type { ClientProtocol } from '../../../src/protocols/ir.ts';
import { TEST_KEY } from '../../helpers/gateway.ts';

export const CLIENT_PROTOCOLS: readonly ClientProtocol[] = ['chat', 'responses', 'messages', 'gemini'];
export const TOOL_PROMPT = 'What is the weather in Paris? SCENARIO:tool';
export const TOOL_RESULT = '{"temperature_c":18}';
const WEATHER_SCHEMA = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

export type ImageInput = { kind: 'base64'; mediaType: string; data: string } | { kind: 'url'; url: string };

export interface TextResult {
  text: string;
  /** The usage object exactly as the SDK handed it over (client field names). */
  usage: unknown;
}

export interface ToolRound {
  callId: string;
  name: string;
  args: Record<string, unknown>;
  finalText: string;
}

export interface StreamOptions {
  onDelta?: (delta: string) => void;
  signal?: AbortSignal;
}

export interface ClientDriver {
  protocol: ClientProtocol;
  text(model: string, prompt: string): Promise<TextResult>;
  stream(model: string, prompt: string, options?: StreamOptions): Promise<TextResult>;
  toolRoundTrip(model: string): Promise<ToolRound>;
  /** First turn of the tool loop, streamed: the call as the SDK assembled it from the stream. */
  streamToolCall(model: string): Promise<Omit<ToolRound, 'finalText'>>;
  image(model: string, image: ImageInput, prompt: string): Promise<string>;
}

export interface CapturedStream {
  /** The client protocol that received it (which grammar applies). */
  protocol: ClientProtocol;
  url: string;
  contentType: string;
  body: Promise<string>;
}

/** Passes a body through unchanged while keeping a text copy of exactly the bytes the reader was given. */
function tap(body: ReadableStream<Uint8Array>): { stream: ReadableStream<Uint8Array>; text: Promise<string> } {
  const decoder = new TextDecoder();
  let text = '';
  const through = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      text += decoder.decode(chunk, { stream: true });
      controller.enqueue(chunk);
    },
  });
  const finished = (): string => text + decoder.decode();
  // Ends, errors (the SDK aborting) and cancels all settle the copy with what got through.
  return { stream: through.readable, text: body.pipeTo(through.writable).then(finished, finished) };
}

/** A fetch for the SDKs that keeps a copy of every streamed response body. */
export function recordingFetch(protocol: ClientProtocol, captured: CapturedStream[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const contentType = response.headers.get('content-type') ?? '';
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const streamed = contentType.includes('event-stream') || url.includes(':streamGenerateContent');
    if (!response.body || !streamed) return response;
    const copy = tap(response.body);
    captured.push({ protocol, url, contentType, body: copy.text });
    return new Response(copy.stream, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

function chatDriver(gateway: string, fetchImpl?: typeof fetch): ClientDriver {
  const client = new OpenAI({ baseURL: `${gateway}/v1`, apiKey: TEST_KEY, maxRetries: 0, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
  const tools = [{ type: 'function' as const, function: { name: 'get_weather', description: 'Weather for a city', parameters: WEATHER_SCHEMA } }];
  return {
    protocol: 'chat',
    async text(model, prompt) {
      const r = await client.chat.completions.create({ model, messages: [{ role: 'user', content: prompt }] });
      return { text: r.choices[0]?.message.content ?? '', usage: r.usage };
    },
    async stream(model, prompt, options = {}) {
      const s = await client.chat.completions.create(
        { model, messages: [{ role: 'user', content: prompt }], stream: true, stream_options: { include_usage: true } },
        options.signal ? { signal: options.signal } : {},
      );
      let text = '';
      let usage: unknown;
      for await (const chunk of s) {
        const delta = chunk.choices[0]?.delta.content;
        if (delta) {
          text += delta;
          options.onDelta?.(delta);
        }
        if (chunk.usage) usage = chunk.usage;
      }
      return { text, usage };
    },
    async toolRoundTrip(model) {
      const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: TOOL_PROMPT }];
      const first = await client.chat.completions.create({ model, messages, tools });
      const call = first.choices[0]?.message.tool_calls?.[0];
      if (!call || call.type !== 'function') throw new Error('no function tool call in the Chat answer');
      expect(first.choices[0]?.finish_reason).to.equal('tool_calls');
      messages.push({ role: 'assistant', content: first.choices[0]?.message.content ?? null, tool_calls: [call] });
      messages.push({ role: 'tool', tool_call_id: call.id, content: TOOL_RESULT });
      const second = await client.chat.completions.create({ model, messages, tools });
      const args = JSON.parse(call.function.arguments) as Record<string, unknown>;
      return { callId: call.id, name: call.function.name, args, finalText: second.choices[0]?.message.content ?? '' };
    },
    async streamToolCall(model) {
      const s = await client.chat.completions.create({ model, messages: [{ role: 'user', content: TOOL_PROMPT }], tools, stream: true });
      const calls: Array<{ id: string; name: string; args: string }> = [];
      let finish: string | null | undefined;
      for await (const chunk of s) {
        const choice = chunk.choices[0];
        for (const delta of choice?.delta.tool_calls ?? []) {
          if (delta.id) calls[delta.index] = { id: delta.id, name: delta.function?.name ?? '', args: '' };
          const call = calls[delta.index];
          if (call) call.args += delta.function?.arguments ?? '';
        }
        finish = choice?.finish_reason ?? finish;
      }
      expect(finish).to.equal('tool_calls');
      expect(calls).to.have.length(1);
      const call = calls[0]!;
      return { callId: call.id, name: call.name, args: JSON.parse(call.args) as Record<string, unknown> };
    },
    async image(model, image, prompt) {
      const url = image.kind === 'url' ? image.url : `data:${image.mediaType};base64,${image.data}`;
      const content: ChatCompletionContentPart[] = [{ type: 'text', text: prompt }, { type: 'image_url', image_url: { url } }];
      const r = await client.chat.completions.create({ model, messages: [{ role: 'user', content }] });
      return r.choices[0]?.message.content ?? '';
    },
  };
}

function responsesDriver(gateway: string, fetchImpl?: typeof fetch): ClientDriver {
  const client = new OpenAI({ baseURL: `${gateway}/v1`, apiKey: TEST_KEY, maxRetries: 0, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
  const tools = [{ type: 'function' as const, name: 'get_weather', description: 'Weather for a city', parameters: WEATHER_SCHEMA, strict: false }];
  return {
    protocol: 'responses',
    async text(model, prompt) {
      const r = await client.responses.create({ model, input: prompt });
      return { text: r.output_text, usage: r.usage };
    },
    async stream(model, prompt, options = {}) {
      const s = await client.responses.create({ model, input: prompt, stream: true }, options.signal ? { signal: options.signal } : {});
      let text = '';
      let usage: unknown;
      for await (const event of s) {
        if (event.type === 'response.output_text.delta') {
          text += event.delta;
          options.onDelta?.(event.delta);
        }
        if (event.type === 'response.completed') usage = event.response.usage;
        if (event.type === 'response.failed') throw new Error(`response.failed: ${event.response.error?.message ?? ''}`);
      }
      return { text, usage };
    },
    async toolRoundTrip(model) {
      const user: ResponseInputItem = { role: 'user', content: TOOL_PROMPT };
      const first = await client.responses.create({ model, input: [user], tools });
      const call = first.output.find((item) => item.type === 'function_call');
      if (!call || call.type !== 'function_call') throw new Error('no function_call item in the Responses answer');
      const input: ResponseInputItem[] = [
        user,
        { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments },
        { type: 'function_call_output', call_id: call.call_id, output: TOOL_RESULT },
      ];
      const second = await client.responses.create({ model, input, tools });
      return { callId: call.call_id, name: call.name, args: JSON.parse(call.arguments) as Record<string, unknown>, finalText: second.output_text };
    },
    async streamToolCall(model) {
      const s = await client.responses.create({ model, input: TOOL_PROMPT, tools, stream: true });
      let args = '';
      let done: { callId: string; name: string; args: string } | undefined;
      for await (const event of s) {
        if (event.type === 'response.function_call_arguments.delta') args += event.delta;
        if (event.type === 'response.completed') {
          const call = event.response.output.find((item) => item.type === 'function_call');
          if (call?.type === 'function_call') done = { callId: call.call_id, name: call.name, args: call.arguments };
        }
      }
      if (!done) throw new Error('no function_call in response.completed');
      expect(args, 'argument deltas add up to the final arguments').to.equal(done.args);
      return { callId: done.callId, name: done.name, args: JSON.parse(done.args) as Record<string, unknown> };
    },
    async image(model, image, prompt) {
      const url = image.kind === 'url' ? image.url : `data:${image.mediaType};base64,${image.data}`;
      const r = await client.responses.create({
        model,
        input: [{ role: 'user', content: [{ type: 'input_text', text: prompt }, { type: 'input_image', image_url: url, detail: 'auto' }] }],
      });
      return r.output_text;
    },
  };
}

function messagesDriver(gateway: string, fetchImpl?: typeof fetch): ClientDriver {
  const client = new Anthropic({ baseURL: gateway, apiKey: null, defaultHeaders: { 'x-api-key': TEST_KEY }, maxRetries: 0, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
  const tools = [{ name: 'get_weather', description: 'Weather for a city', input_schema: { type: 'object' as const, properties: WEATHER_SCHEMA.properties, required: WEATHER_SCHEMA.required } }];
  const textOf = (content: Anthropic.ContentBlock[]): string => content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  return {
    protocol: 'messages',
    async text(model, prompt) {
      const r = await client.messages.create({ model, max_tokens: 256, messages: [{ role: 'user', content: prompt }] });
      return { text: textOf(r.content), usage: r.usage };
    },
    async stream(model, prompt, options = {}) {
      const s = client.messages.stream({ model, max_tokens: 256, messages: [{ role: 'user', content: prompt }] }, options.signal ? { signal: options.signal } : {});
      s.on('text', (delta) => options.onDelta?.(delta));
      const final = await s.finalMessage();
      return { text: textOf(final.content), usage: final.usage };
    },
    async toolRoundTrip(model) {
      const user: Anthropic.MessageParam = { role: 'user', content: TOOL_PROMPT };
      const first = await client.messages.create({ model, max_tokens: 256, messages: [user], tools });
      const call = first.content.find((b) => b.type === 'tool_use');
      if (!call || call.type !== 'tool_use') throw new Error('no tool_use block in the Messages answer');
      expect(first.stop_reason).to.equal('tool_use');
      const second = await client.messages.create({
        model,
        max_tokens: 256,
        tools,
        messages: [user, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: TOOL_RESULT }] }],
      });
      return { callId: call.id, name: call.name, args: call.input as Record<string, unknown>, finalText: textOf(second.content) };
    },
    async streamToolCall(model) {
      const final = await client.messages.stream({ model, max_tokens: 256, messages: [{ role: 'user', content: TOOL_PROMPT }], tools }).finalMessage();
      const call = final.content.find((b) => b.type === 'tool_use');
      if (!call || call.type !== 'tool_use') throw new Error('no tool_use block in the streamed message');
      expect(final.stop_reason).to.equal('tool_use');
      return { callId: call.id, name: call.name, args: call.input as Record<string, unknown> };
    },
    async image(model, image, prompt) {
      const source: Anthropic.ImageBlockParam['source'] =
        image.kind === 'url' ? { type: 'url', url: image.url } : { type: 'base64', media_type: image.mediaType as 'image/png', data: image.data };
      const r = await client.messages.create({ model, max_tokens: 256, messages: [{ role: 'user', content: [{ type: 'image', source }, { type: 'text', text: prompt }] }] });
      return textOf(r.content);
    },
  };
}

function geminiDriver(gateway: string, fetchImpl?: typeof fetch): ClientDriver {
  const ai = new GoogleGenAI({ apiKey: TEST_KEY, httpOptions: { baseUrl: gateway, ...(fetchImpl ? { fetch: fetchImpl } : {}) } });
  const config = { tools: [{ functionDeclarations: [{ name: 'get_weather', description: 'Weather for a city', parametersJsonSchema: WEATHER_SCHEMA }] }] };
  return {
    protocol: 'gemini',
    async text(model, prompt) {
      const r = await ai.models.generateContent({ model, contents: prompt });
      return { text: r.text ?? '', usage: r.usageMetadata };
    },
    async stream(model, prompt, options = {}) {
      const s = await ai.models.generateContentStream({ model, contents: prompt, ...(options.signal ? { config: { abortSignal: options.signal } } : {}) });
      let text = '';
      let usage: unknown;
      for await (const chunk of s) {
        const delta = chunk.text;
        if (delta) {
          text += delta;
          options.onDelta?.(delta);
        }
        if (chunk.usageMetadata) usage = chunk.usageMetadata;
      }
      return { text, usage };
    },
    async toolRoundTrip(model) {
      const user: Content = { role: 'user', parts: [{ text: TOOL_PROMPT }] };
      const first = await ai.models.generateContent({ model, contents: [user], config });
      const call = first.functionCalls?.[0];
      const modelTurn = first.candidates?.[0]?.content;
      if (!call?.name || !modelTurn) throw new Error('no functionCall in the Gemini answer');
      const output = JSON.parse(TOOL_RESULT) as unknown;
      const result: Part = { functionResponse: { ...(call.id ? { id: call.id } : {}), name: call.name, response: { output } } };
      const second = await ai.models.generateContent({ model, contents: [user, modelTurn, { role: 'user', parts: [result] }], config });
      return { callId: call.id ?? '', name: call.name, args: call.args ?? {}, finalText: second.text ?? '' };
    },
    async streamToolCall(model) {
      const s = await ai.models.generateContentStream({ model, contents: TOOL_PROMPT, config });
      const calls = [];
      for await (const chunk of s) calls.push(...(chunk.functionCalls ?? []));
      expect(calls).to.have.length(1);
      const call = calls[0]!;
      return { callId: call.id ?? '', name: call.name ?? '', args: call.args ?? {} };
    },
    async image(model, image, prompt) {
      const part: Part = image.kind === 'url' ? { fileData: { fileUri: image.url, mimeType: 'image/png' } } : { inlineData: { mimeType: image.mediaType, data: image.data } };
      const r = await ai.models.generateContent({ model, contents: [{ role: 'user', parts: [{ text: prompt }, part] }] });
      return r.text ?? '';
    },
  };
}

export function createDriver(protocol: ClientProtocol, gateway: string, fetchImpl?: typeof fetch): ClientDriver {
  switch (protocol) {
    case 'chat':
      return chatDriver(gateway, fetchImpl);
    case 'responses':
      return responsesDriver(gateway, fetchImpl);
    case 'messages':
      return messagesDriver(gateway, fetchImpl);
    case 'gemini':
      return geminiDriver(gateway, fetchImpl);
  }
}

/** A minimal raw request in a protocol's own wire shape (for status/header/body assertions without an SDK). */
export function rawRequest(gateway: string, protocol: ClientProtocol, model: string, prompt: string, stream = false): { url: string; init: RequestInit } {
  const json = { 'content-type': 'application/json' };
  const post = (url: string, headers: Record<string, string>, body: unknown): { url: string; init: RequestInit } => ({
    url,
    init: { method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify(body) },
  });
  const bearer = { authorization: `Bearer ${TEST_KEY}` };
  switch (protocol) {
    case 'chat':
      return post(`${gateway}/v1/chat/completions`, bearer, { model, stream, messages: [{ role: 'user', content: prompt }] });
    case 'responses':
      return post(`${gateway}/v1/responses`, bearer, { model, stream, input: prompt });
    case 'messages':
      return post(`${gateway}/v1/messages`, { 'x-api-key': TEST_KEY, 'anthropic-version': '2023-06-01' }, { model, stream, max_tokens: 100, messages: [{ role: 'user', content: prompt }] });
    case 'gemini': {
      const action = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
      return post(`${gateway}/v1beta/models/${model}:${action}`, { 'x-goog-api-key': TEST_KEY }, { contents: [{ role: 'user', parts: [{ text: prompt }] }] });
    }
  }
}
