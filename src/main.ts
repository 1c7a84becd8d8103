#!/usr/bin/env node
// Process entry: `gateway start` (default) and `gateway validate [file]`. The only place that exits.
import { parseArgs } from 'node:util';
import { formatProblem, loadConfigFile, redactConfig } from './config/index.ts';
import type { GatewayConfig } from './config/types.ts';
import { loadPlugins } from './core/registry.ts';
import { createGateway } from './gateway.ts';

const USAGE = `Usage:
  gateway start [--config <file>]      run the gateway (default command)
  gateway validate [file]              check a config file and its plugins; exit 1 on any problem
Config file: --config, else $GATEWAY_CONFIG, else ./gateway.config.yaml. PORT overrides server.port.`;

interface Cli {
  command: 'start' | 'validate' | 'help';
  file?: string;
}

function parseCli(argv: string[]): Cli {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { config: { type: 'string', short: 'c' }, help: { type: 'boolean', short: 'h' } },
  });
  const [first, second] = positionals;
  const command = values.help ? 'help' : first === 'validate' ? 'validate' : first === undefined || first === 'start' ? 'start' : undefined;
  if (!command) throw new Error(`unknown command "${first}"\n${USAGE}`);
  const file = values.config ?? (command === 'validate' ? second : undefined) ?? process.env.GATEWAY_CONFIG;
  return { command, ...(file ? { file } : {}) };
}

async function load(file: string | undefined): Promise<GatewayConfig | undefined> {
  const result = await loadConfigFile({ ...(file ? { file } : {}), cwd: process.cwd(), env: process.env });
  for (const warning of result.warnings) console.warn(`warning: ${warning}`);
  if (result.problems.length > 0 || !result.config) {
    console.error(`${result.filePath ?? file ?? 'config'}: ${result.problems.length} problem(s):`);
    for (const problem of result.problems) console.error(`  ${formatProblem(problem)}`);
    return undefined;
  }
  return result.config;
}

async function validate(file: string | undefined): Promise<number> {
  const config = await load(file);
  if (!config) return 1;
  try {
    await loadPlugins(config.plugins, config.baseDir);
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
  const models = config.models.length;
  const providers = Object.keys(config.providers).length;
  console.log(`${config.filePath ?? 'config'}: OK (${models} models, ${providers} providers, plugins: ${config.plugins.map((p) => p.name).join(', ')})`);
  return 0;
}

async function start(file: string | undefined): Promise<number> {
  const config = await load(file);
  if (!config) return 1;
  const gateway = await createGateway(config);
  const { url } = await gateway.listen();
  gateway.logger.info(`gateway listening on ${url}`, { config: config.filePath, publicUrl: config.server.publicUrl });
  gateway.logger.debug('effective config', { config: redactConfig(config) });
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) {
        gateway.logger.warn(`${signal} again: exiting without waiting`);
        return resolve(1);
      }
      stopping = true;
      gateway.logger.info(`${signal}: draining (up to ${config.server.shutdownTimeoutMs} ms)`, { inFlight: gateway.inFlight });
      gateway.close().then(
        () => resolve(0),
        (error: unknown) => {
          gateway.logger.error('shutdown failed', { error: String(error) });
          resolve(1);
        },
      );
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
  });
}

async function main(): Promise<number> {
  const cli = parseCli(process.argv.slice(2));
  if (cli.command === 'help') {
    console.log(USAGE);
    return 0;
  }
  return cli.command === 'validate' ? validate(cli.file) : start(cli.file);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
