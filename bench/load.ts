// Non-streaming load: autocannon (programmatic API) with a fixed number of keep-alive connections for
// a fixed duration. autocannon's own latency histogram has 1 ms resolution, too coarse for a 1 ms
// target, so each response time it reports (hrtime, fractional ms) is collected here instead.
import autocannon from 'autocannon';

export interface RequestLoad {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  durationS: number;
}

/** What one load run observed; measure.ts turns it into a row. */
export interface LoadSample {
  completed: number;
  failures: number;
  elapsedMs: number;
  /** Whole-response times of the 2xx responses, ms. */
  latencies: number[];
  /** Time to the first body byte, ms (streaming loads only). */
  ttfb?: number[];
}

export function runRequests(load: RequestLoad): Promise<LoadSample> {
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: load.url,
        method: load.method,
        headers: load.headers,
        ...(load.body !== undefined ? { body: load.body } : {}),
        connections: load.connections,
        duration: load.durationS,
        timeout: 10,
      },
      (error) => {
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolve({ completed: latencies.length, failures, elapsedMs: performance.now() - started, latencies });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
      else failures += 1;
    });
    instance.on('reqError', () => {
      failures += 1;
    });
  });
}

/** One request before a row is measured: a misconfigured target fails loudly here, not as a row of errors. */
export async function probe(url: string, headers: Record<string, string>, body: string): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers, body });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`probe ${url} answered ${res.status}: ${text.slice(0, 500)}`);
}
