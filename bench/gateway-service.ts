// The gateway as a bench service (run in its own process by services.ts): the raw configuration document
// goes through parseConfig, exactly as a YAML file would, then createGateway listens on 127.0.0.1:0.
import { fileURLToPath } from 'node:url';
import { formatProblem, parseConfig } from '../src/config/index.ts';
import { createGateway } from '../src/gateway.ts';
import type { StartedService } from './service-protocol.ts';

export interface GatewayServiceOptions {
  /** The configuration document, as YAML would give it (see gateway-config.ts). */
  config: Record<string, unknown>;
}

/** Built-in plugin names and relative paths resolve against the repository root. */
const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));

export async function start(options: GatewayServiceOptions): Promise<StartedService> {
  const { config, problems } = parseConfig(options.config, { env: {}, baseDir: REPO_ROOT });
  if (!config) throw new Error(`bench gateway config invalid:\n${problems.map((p) => `  ${formatProblem(p)}`).join('\n')}`);
  const gateway = await createGateway(config);
  const { url } = await gateway.listen(0, '127.0.0.1');
  return { url, close: () => gateway.close(2000) };
}
