// Starts bench services in child processes (see child.ts) and keeps track of them so the orchestrator
// can close whatever a scenario left open. The load generator stays in the orchestrator's own process,
// so neither it nor the fake upstream competes with the proxy under test for one event loop.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GatewayServiceOptions } from './gateway-service.ts';
import type { ReferenceProxyOptions } from './reference-proxy.ts';
import type { ChildMessage, ParentMessage, ProcessStats } from './service-protocol.ts';
import { isChildMessage } from './service-protocol.ts';
import type { UpstreamOptions } from './upstream.ts';

export interface Service {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  stats(): Promise<ProcessStats>;
  close(): Promise<void>;
}

const CHILD_ENTRY = fileURLToPath(new URL('./child.ts', import.meta.url));
const START_TIMEOUT_MS = 30_000;
const REPLY_TIMEOUT_MS = 10_000;

function awaitReply<T extends ChildMessage['type']>(
  child: ChildProcess,
  name: string,
  type: T,
  timeoutMs: number,
): Promise<Extract<ChildMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`${name}: no "${type}" reply within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (message: unknown): void => {
      if (!isChildMessage(message)) return;
      if (message.type === 'failed') finish(new Error(`${name} failed: ${message.error}`));
      else if (message.type === type) finish(undefined, message as Extract<ChildMessage, { type: T }>);
    };
    const onExit = (code: number | null, signal: string | null): void => finish(new Error(`${name} exited (${signal ?? code})`));
    function finish(error?: Error, message?: Extract<ChildMessage, { type: T }>): void {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (message) resolve(message);
      else reject(error ?? new Error(`${name}: no reply`));
    }
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

async function spawnService(name: string, module: string, options: unknown, execArgv: string[]): Promise<Service> {
  // Child stdout goes to our stderr: stdout carries only the report.
  const child = fork(CHILD_ENTRY, [module], { stdio: ['ignore', 2, 2, 'ipc'], execArgv });
  const send = (message: ParentMessage): void => void child.send(message);
  const ready = awaitReply(child, name, 'ready', START_TIMEOUT_MS);
  send({ type: 'start', options });
  let url: string;
  try {
    ({ url } = await ready);
  } catch (error) {
    child.kill();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    name,
    url,
    pid: child.pid ?? -1,
    async stats() {
      const reply = awaitReply(child, name, 'stats', REPLY_TIMEOUT_MS);
      send({ type: 'stats' });
      return (await reply).stats;
    },
    close() {
      closing ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        send({ type: 'close' });
        const timer = setTimeout(() => child.kill(), REPLY_TIMEOUT_MS);
        await exited;
        clearTimeout(timer);
      })();
      return closing;
    },
  };
}

export class Services {
  private readonly open = new Set<Service>();
  private readonly cpuProfileDir: string | undefined;

  constructor(cpuProfileDir?: string) {
    this.cpuProfileDir = cpuProfileDir;
  }

  upstream(options: UpstreamOptions): Promise<Service> {
    return this.start('fake upstream', new URL('./upstream.ts', import.meta.url), options);
  }

  referenceProxy(options: ReferenceProxyOptions): Promise<Service> {
    return this.start('reference proxy', new URL('./reference-proxy.ts', import.meta.url), options);
  }

  /** Any module exporting `start(options): Promise<StartedService>`, in a child process of its own. */
  start(name: string, module: URL, options: unknown): Promise<Service> {
    return this.track(spawnService(name, module.href, options, []));
  }

  gateway(options: GatewayServiceOptions): Promise<Service> {
    const dir = this.cpuProfileDir;
    const execArgv = dir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`];
    return this.track(spawnService('gateway', new URL('./gateway-service.ts', import.meta.url).href, options, execArgv));
  }

  async close(service: Service): Promise<void> {
    this.open.delete(service);
    await service.close();
  }

  async closeAll(): Promise<void> {
    const all = [...this.open];
    this.open.clear();
    await Promise.all(all.map((service) => service.close()));
  }

  private async track(starting: Promise<Service>): Promise<Service> {
    const service = await starting;
    this.open.add(service);
    return service;
  }
}
