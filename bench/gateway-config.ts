// The gateway configuration the bench runs, as the document a gateway.config.yaml would give: one
// OpenAI-type provider pointing at the fake upstream, one client key, and the default plugin chain a
// deployment runs on every request (logging, auth, rate-limit). The access log goes to a file, so that
// writing lines is measured but a terminal is not; rate limits are set far above what the bench sends.
import path from 'node:path';
import { BENCH_MODEL, UPSTREAM_MODEL } from './payloads.ts';

export const BENCH_KEY = 'sk-bench-client-0123456789abcdef';

export interface BenchGatewayConfigOptions {
  /** Root of the fake upstream; the OpenAI-type baseUrl is this plus /v1. */
  upstreamUrl: string;
  /** Scratch directory for the access log and storage. */
  workDir: string;
  /** Extra entries appended to `models` (the bench model is always first). */
  models?: Record<string, unknown>[];
  /** Extra providers next to `upstream`. */
  providers?: Record<string, Record<string, unknown>>;
  /** Extra plugins appended after logging, auth and rate-limit. */
  plugins?: unknown[];
}

export function benchGatewayConfig(options: BenchGatewayConfigOptions): Record<string, unknown> {
  return {
    server: { port: 0, host: '127.0.0.1', publicUrl: 'http://127.0.0.1:0', logLevel: 'info' },
    storage: { kind: 'sqlite', path: path.join(options.workDir, 'data') },
    keys: [{ name: 'bench', key: BENCH_KEY, models: ['*'] }],
    providers: {
      upstream: { type: 'openai', baseUrl: `${options.upstreamUrl}/v1`, apiKey: 'sk-upstream-bench-key' },
      ...options.providers,
    },
    models: [{ name: BENCH_MODEL, targets: [{ provider: 'upstream', model: UPSTREAM_MODEL }] }, ...(options.models ?? [])],
    plugins: [
      { logging: { destination: path.join(options.workDir, 'access.log') } },
      'auth',
      { 'rate-limit': { requestsPerMinute: 1_000_000_000, concurrency: 100_000 } },
      ...(options.plugins ?? []),
    ],
  };
}
