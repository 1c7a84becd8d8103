// Grammar checker for OpenAI Responses SSE streams (protocols.md §2.5, §0.1): returns violations, [] when valid.
//   every event has an `event:` line equal to data.type and sequence_number 0,1,2…; response.created first;
//   output items open (output_item.added, output_index 0,1,2…) and close (output_item.done) one at a time;
//   content parts / summary parts open and close inside their item; deltas only into the open part and the
//   `.done` texts equal the concatenated deltas; one terminal event (completed | incomplete | failed, or
//   `error`) last, carrying the full output and usage; an optional trailing `data: [DONE]`.
import { isObject, parseSse, tryJson } from './sse.ts';

type Data = Record<string, unknown>;

const TERMINAL_STATUS: Record<string, string> = {
  'response.completed': 'completed',
  'response.incomplete': 'incomplete',
  'response.failed': 'failed',
};
const RESPONSE_FIELDS = [
  'id', 'object', 'created_at', 'status', 'model', 'output', 'error', 'incomplete_details', 'instructions',
  'metadata', 'parallel_tool_calls', 'temperature', 'top_p', 'tool_choice', 'tools',
];

interface OpenPart {
  index: number;
  type: string;
  text: string;
}

interface OpenItem {
  index: number;
  id: string;
  type: string;
  text: string;
  parts: string[];
  part?: OpenPart;
  summaries: string[];
  summary?: OpenPart;
}

class ResponsesGrammar {
  readonly violations: string[] = [];
  private sequence = 0;
  private responseId: unknown;
  private ended: string | undefined;
  private sawDone = false;
  private open: OpenItem | undefined;
  private readonly items: Array<{ id: string; type: string }> = [];
  private readonly ids = new Set<string>();

  frame(n: number, event: string | undefined, raw: string): void {
    const at = `frame ${n} (${event ?? 'no event'})`;
    if (raw.trim() === '[DONE]') {
      if (this.ended === undefined || this.sawDone) this.fail(`${at}: [DONE] must come once, after the terminal event`);
      this.sawDone = true;
      return;
    }
    if (this.ended !== undefined) return this.fail(`${at}: event after ${this.ended}`);
    if (event === undefined) return this.fail(`${at}: missing "event:" line`);
    const parsed = tryJson(raw);
    if (!parsed.ok || !isObject(parsed.value)) return this.fail(`${at}: data is not a JSON object`);
    const data = parsed.value;
    if (data.type !== event) this.fail(`${at}: data.type "${String(data.type)}" differs from the event name`);
    if (data.sequence_number !== this.sequence) this.fail(`${at}: sequence_number ${String(data.sequence_number)}, expected ${this.sequence}`);
    this.sequence++;
    if (this.responseId === undefined && event !== 'response.created' && event !== 'error') return this.fail(`${at}: first event must be response.created`);
    this.dispatch(at, event, data);
  }

  finish(): string[] {
    if (this.ended === undefined) this.fail('stream ended without a terminal event');
    return this.violations;
  }

  private fail(message: string): void {
    this.violations.push(message);
  }

  private dispatch(at: string, event: string, data: Data): void {
    if (event in TERMINAL_STATUS) return this.onTerminal(at, event, data);
    switch (event) {
      case 'response.created':
        if (this.responseId !== undefined) return this.fail(`${at}: duplicate response.created`);
        this.responseId = isObject(data.response) ? data.response.id : null;
        this.checkSnapshot(at, data.response, ['in_progress', 'queued']);
        return;
      case 'response.in_progress':
      case 'response.queued':
        this.checkSnapshot(at, data.response, ['in_progress', 'queued']);
        return;
      case 'response.output_item.added':
        return this.onItemAdded(at, data);
      case 'response.output_item.done':
        return this.onItemDone(at, data);
      case 'error':
        if (typeof data.message !== 'string') this.fail(`${at}: error event without message`);
        this.ended = 'error';
        return;
      default:
        return this.onItemEvent(at, event, data);
    }
  }

  private checkSnapshot(at: string, response: unknown, statuses: string[]): Data | undefined {
    if (!isObject(response)) {
      this.fail(`${at}: response object missing`);
      return undefined;
    }
    for (const field of RESPONSE_FIELDS) if (!(field in response)) this.fail(`${at}: response.${field} missing`);
    if (response.object !== 'response') this.fail(`${at}: response.object is not "response"`);
    if (response.id !== this.responseId) this.fail(`${at}: response id changed`);
    if (!statuses.includes(String(response.status))) this.fail(`${at}: response.status "${String(response.status)}", expected ${statuses.join('|')}`);
    if (!Array.isArray(response.output)) this.fail(`${at}: response.output is not an array`);
    return response;
  }

  private onItemAdded(at: string, data: Data): void {
    const item = data.item;
    if (this.open !== undefined) this.fail(`${at}: item opened while item ${this.open.index} is still open`);
    if (!isObject(item) || typeof item.id !== 'string' || item.id === '' || typeof item.type !== 'string') return this.fail(`${at}: item needs a non-empty id and a type`);
    if (data.output_index !== this.items.length) this.fail(`${at}: output_index ${String(data.output_index)}, expected ${this.items.length}`);
    if (this.ids.has(item.id)) this.fail(`${at}: duplicate item id ${item.id}`);
    this.ids.add(item.id);
    if (item.type === 'function_call' && (typeof item.call_id !== 'string' || typeof item.name !== 'string')) this.fail(`${at}: function_call item needs call_id and name`);
    if (item.type === 'message' && (!Array.isArray(item.content) || item.content.length !== 0)) this.fail(`${at}: message item must start with empty content`);
    const text = item.type === 'function_call' && typeof item.arguments === 'string' ? item.arguments : '';
    this.open = { index: this.items.length, id: item.id, type: item.type, text, parts: [], summaries: [] };
  }

  private onItemDone(at: string, data: Data): void {
    const open = this.open;
    const item = data.item;
    if (!open) return this.fail(`${at}: no item is open`);
    if (!isObject(item) || item.id !== open.id || data.output_index !== open.index) this.fail(`${at}: item id/output_index differ from the open item`);
    if (open.part || open.summary) this.fail(`${at}: item closed while a part is open`);
    if (isObject(item)) this.checkFinalItem(at, open, item);
    this.items.push({ id: open.id, type: open.type });
    this.open = undefined;
  }

  private checkFinalItem(at: string, open: OpenItem, item: Data): void {
    if (open.type !== 'reasoning' && item.status !== 'completed' && item.status !== 'incomplete') this.fail(`${at}: final item status "${String(item.status)}"`);
    const texts = (list: unknown, key: string): string[] => (Array.isArray(list) ? list.map((p) => (isObject(p) ? String(p[key] ?? p.refusal ?? '') : '')) : []);
    if (open.type === 'message' && JSON.stringify(texts(item.content, 'text')) !== JSON.stringify(open.parts)) this.fail(`${at}: final message content differs from the streamed parts`);
    if (open.type === 'function_call' && item.arguments !== open.text) this.fail(`${at}: final arguments differ from the streamed deltas`);
    if (open.type === 'reasoning' && JSON.stringify(texts(item.summary, 'text')) !== JSON.stringify(open.summaries)) this.fail(`${at}: final summary differs from the streamed summary parts`);
  }

  private onItemEvent(at: string, event: string, data: Data): void {
    const open = this.open;
    if (!event.startsWith('response.')) return this.fail(`${at}: unknown event`);
    if (!open) {
      if (/\.(delta|done|added)$/.test(event)) this.fail(`${at}: item event with no open item`);
      return;
    }
    if ('item_id' in data && (data.item_id !== open.id || data.output_index !== open.index)) return this.fail(`${at}: item_id/output_index do not match the open item`);
    if (event.startsWith('response.content_part.') || event.startsWith('response.output_text.') || event.startsWith('response.refusal.') || event.startsWith('response.reasoning_text.')) {
      return this.onPartEvent(at, event, data, open);
    }
    if (event.startsWith('response.reasoning_summary_')) return this.onSummaryEvent(at, event, data, open);
    if (event.startsWith('response.function_call_arguments.')) return this.onArguments(at, event, data, open);
  }

  private onPartEvent(at: string, event: string, data: Data, open: OpenItem): void {
    if (event === 'response.content_part.added') {
      const part = data.part;
      if (open.part) this.fail(`${at}: part opened while another is open`);
      if (open.type !== 'message' && open.type !== 'reasoning') this.fail(`${at}: content part in a ${open.type} item`);
      if (data.content_index !== open.parts.length) this.fail(`${at}: content_index ${String(data.content_index)}, expected ${open.parts.length}`);
      open.part = { index: open.parts.length, type: isObject(part) ? String(part.type) : '', text: '' };
      return;
    }
    const part = open.part;
    if (!part || data.content_index !== part.index) return this.fail(`${at}: no open part at content_index ${String(data.content_index)}`);
    if (event.endsWith('.delta')) {
      if (typeof data.delta !== 'string') this.fail(`${at}: delta is not a string`);
      if (event === 'response.output_text.delta' && !Array.isArray(data.logprobs)) this.fail(`${at}: output_text.delta without logprobs array`);
      part.text += String(data.delta);
    } else if (event === 'response.content_part.done') {
      const final = isObject(data.part) ? (data.part.text ?? data.part.refusal) : undefined;
      if (final !== part.text) this.fail(`${at}: part text differs from the streamed deltas`);
      open.parts.push(part.text);
      open.part = undefined;
    } else if (event.endsWith('.done')) {
      const final = data.text ?? data.refusal;
      if (final !== part.text) this.fail(`${at}: done text differs from the streamed deltas`);
    }
  }

  private onSummaryEvent(at: string, event: string, data: Data, open: OpenItem): void {
    if (open.type !== 'reasoning') return this.fail(`${at}: summary event in a ${open.type} item`);
    if (event === 'response.reasoning_summary_part.added') {
      if (open.summary) this.fail(`${at}: summary part opened while another is open`);
      if (data.summary_index !== open.summaries.length) this.fail(`${at}: summary_index ${String(data.summary_index)}, expected ${open.summaries.length}`);
      open.summary = { index: open.summaries.length, type: 'summary_text', text: '' };
      return;
    }
    const summary = open.summary;
    if (!summary || data.summary_index !== summary.index) return this.fail(`${at}: no open summary part at summary_index ${String(data.summary_index)}`);
    if (event === 'response.reasoning_summary_text.delta') summary.text += String(data.delta);
    else if (event === 'response.reasoning_summary_text.done' && data.text !== summary.text) this.fail(`${at}: summary text differs from the deltas`);
    else if (event === 'response.reasoning_summary_part.done') {
      if (!isObject(data.part) || data.part.text !== summary.text) this.fail(`${at}: summary part differs from the deltas`);
      open.summaries.push(summary.text);
      open.summary = undefined;
    }
  }

  private onArguments(at: string, event: string, data: Data, open: OpenItem): void {
    if (open.type !== 'function_call') return this.fail(`${at}: arguments event in a ${open.type} item`);
    if (event.endsWith('.delta')) open.text += String(data.delta);
    else if (data.arguments !== open.text) this.fail(`${at}: arguments differ from the streamed deltas`);
  }

  private onTerminal(at: string, event: string, data: Data): void {
    const status = TERMINAL_STATUS[event] ?? '';
    const response = this.checkSnapshot(at, data.response, [status]);
    this.ended = event;
    if (!response) return;
    if (status === 'failed') {
      const error = response.error;
      if (!isObject(error) || typeof error.code !== 'string' || typeof error.message !== 'string') this.fail(`${at}: failed response needs error {code, message}`);
      return;
    }
    if (this.open) this.fail(`${at}: terminal event while item ${this.open.index} is open`);
    const output = Array.isArray(response.output) ? response.output : [];
    const got = output.map((item) => (isObject(item) ? `${String(item.type)}:${String(item.id)}` : '?'));
    const want = this.items.map((item) => `${item.type}:${item.id}`);
    if (JSON.stringify(got) !== JSON.stringify(want)) this.fail(`${at}: response.output does not list the streamed items`);
    const usage = response.usage;
    if (!isObject(usage) || typeof usage.input_tokens !== 'number' || typeof usage.output_tokens !== 'number' || typeof usage.total_tokens !== 'number') {
      this.fail(`${at}: terminal response without usage`);
    }
    if (status === 'incomplete' && !(isObject(response.incomplete_details) && typeof response.incomplete_details.reason === 'string')) {
      this.fail(`${at}: incomplete response without incomplete_details.reason`);
    }
  }
}

export function checkResponsesStream(text: string): string[] {
  const grammar = new ResponsesGrammar();
  const frames = parseSse(text);
  if (frames.length === 0) return ['stream has no events'];
  frames.forEach((frame, n) => grammar.frame(n, frame.event, frame.data));
  return grammar.finish();
}
