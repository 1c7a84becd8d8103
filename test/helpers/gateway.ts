// Test gateway factory: builds a config from a plain object (through the real validator), starts the
// gateway on an ephemeral port with logs captured in memory, and tears everything down.
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import winston from 'winston';
import { parseConfig } from '../../src/config/index.ts';
import { createGateway, type Gateway } from '../../src/gateway.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const TEST_KEY = 'sk-test-ops-0123456789';
export const OTHER_KEY = 'sk-test-other-9876543210';

export interface TestGateway {
  url: string;
  gateway: Gateway;
  /** Every log line the gateway wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export function captureLogger(logs: Array<Record<string, unknown>>): winston.Logger {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return winston.createLogger({
    level: 'debug',
    format: winston.format.combine(winston.format.timestamp(), winston.format.json()),
    transports: [new winston.transports.Stream({ stream: sink })],
  });
}

/** Defaults: two keys (`ops` may use everything, `other` only `other-*`) and no plugins unless given. */
export function testConfig(overrides: Record<string, unknown>): Record<string, unknown> {
  return {
    server: { port: 0, host: '127.0.0.1', publicUrl: 'http://127.0.0.1:0', shutdownTimeoutMs: 2000 },
    keys: [
      { name: 'ops', key: TEST_KEY, models: ['*'] },
      { name: 'other', key: OTHER_KEY, models: ['other-*'] },
    ],
    plugins: ['logging', 'auth'],
    ...overrides,
  };
}

export async function startTestGateway(raw: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): Promise<TestGateway> {
  const { config, problems } = parseConfig(raw, { env, baseDir: REPO_ROOT });
  if (!config) throw new Error(`test config invalid:\n${problems.map((p) => `${p.path}: ${p.message}`).join('\n')}`);
  const logs: Array<Record<string, unknown>> = [];
  const gateway = await createGateway(config, { logger: captureLogger(logs) });
  const { url } = await gateway.listen(0, '127.0.0.1');
  return { url, gateway, logs, close: () => gateway.close(1000) };
}
