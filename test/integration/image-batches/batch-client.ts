// A small client for the batch API as a test sees it: raw status, headers and JSON, plus polling with a
// deadline. Download URLs in batch objects are absolute (server.publicUrl); they are fetched from the test
// gateway's real address with the same path.
import { expect } from 'chai';

export interface ItemJson {
  index: number;
  custom_id?: string;
  prompt: string;
  size: string;
  status: string;
  error?: { code: string; message: string };
  url?: string;
  expires_at?: number;
}

export interface BatchJson {
  id: string;
  object: string;
  model: string;
  status: string;
  created_at: number;
  completed_at?: number;
  metadata?: Record<string, string>;
  request_counts: Record<string, number>;
  items: ItemJson[];
  archive_url?: string;
}

export interface Reply<T> {
  status: number;
  headers: Headers;
  body: T;
}

export interface ErrorJson {
  error: { message: string; type: string; code: string | null; param?: string | null };
}

const TERMINAL = new Set(['completed', 'partial_failed', 'failed', 'cancelled']);
const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class BatchClient {
  readonly baseUrl: string;
  readonly key: string;

  constructor(baseUrl: string, key: string) {
    this.baseUrl = baseUrl;
    this.key = key;
  }

  as(key: string): BatchClient {
    return new BatchClient(this.baseUrl, key);
  }

  async call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as T };
  }

  submit(body: unknown, headers: Record<string, string> = {}): Promise<Reply<BatchJson & ErrorJson>> {
    return this.call('POST', '/v1/images/batches', body, headers);
  }

  /** Submits and insists on 202. */
  async create(body: unknown, headers: Record<string, string> = {}): Promise<BatchJson> {
    const reply = await this.submit(body, headers);
    expect(reply.status, JSON.stringify(reply.body)).to.equal(202);
    return reply.body;
  }

  get(id: string): Promise<Reply<BatchJson & ErrorJson>> {
    return this.call('GET', `/v1/images/batches/${id}`);
  }

  retry(id: string): Promise<Reply<BatchJson & ErrorJson>> {
    return this.call('POST', `/v1/images/batches/${id}/retry`);
  }

  cancel(id: string): Promise<Reply<BatchJson & ErrorJson>> {
    return this.call('POST', `/v1/images/batches/${id}/cancel`);
  }

  /** GET an absolute URL from a batch object, on this gateway. */
  fetchUrl(url: string, headers: Record<string, string> = {}): Promise<Response> {
    const { pathname } = new URL(url);
    return fetch(`${this.baseUrl}${pathname}`, { headers: { authorization: `Bearer ${this.key}`, ...headers } });
  }

  /** Polls until `done` holds for the batch (default: a terminal status). */
  async waitFor(id: string, done: (batch: BatchJson) => boolean = (b) => TERMINAL.has(b.status), timeoutMs = 15_000): Promise<BatchJson> {
    const deadline = Date.now() + timeoutMs;
    let last: BatchJson | undefined;
    while (Date.now() < deadline) {
      const reply = await this.get(id);
      expect(reply.status, JSON.stringify(reply.body)).to.equal(200);
      last = reply.body;
      if (done(last)) return last;
      await delay(40);
    }
    throw new Error(`batch ${id} did not reach the expected state in ${timeoutMs} ms; last seen: ${JSON.stringify(last?.request_counts)} ${last?.status}`);
  }
}

export function isTerminal(status: string): boolean {
  return TERMINAL.has(status);
}
