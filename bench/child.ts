// Entry point of every bench child process: one service per process, so the upstream, the reference
// proxy and the gateway each get their own event loop and their own RSS. argv[2] names the service
// module (a file URL); the parent sends its options over IPC and later asks for stats and close.
import type { ChildMessage, ParentMessage, ServiceModule, StartedService } from './service-protocol.ts';
import { isParentMessage } from './service-protocol.ts';

function send(message: ChildMessage): void {
  process.send?.(message);
}

function processStats(): ChildMessage {
  const cpu = process.cpuUsage();
  return {
    type: 'stats',
    stats: {
      rss: process.memoryUsage.rss(),
      heapUsed: process.memoryUsage().heapUsed,
      // getrusage(2) ru_maxrss: the peak resident set (VmHWM) over the process's life, in KiB.
      peakRss: process.resourceUsage().maxRSS * 1024,
      cpuMicros: cpu.user + cpu.system,
      cpuSystemMicros: cpu.system,
    },
  };
}

async function load(specifier: string): Promise<ServiceModule> {
  const loaded: unknown = await import(specifier);
  const start = typeof loaded === 'object' && loaded !== null && 'start' in loaded ? loaded.start : undefined;
  if (typeof start !== 'function') throw new Error(`${specifier} does not export start(options)`);
  // The module's own options type is checked where the parent builds them (services.ts).
  return { start: start as ServiceModule['start'] };
}

async function main(): Promise<void> {
  const specifier = process.argv[2];
  if (specifier === undefined || process.send === undefined) throw new Error('bench/child.ts is started by bench/services.ts');
  const service = await load(specifier);
  let started: StartedService | undefined;

  process.on('message', (raw: unknown) => {
    if (!isParentMessage(raw)) return;
    void handle(raw).catch((error: unknown) => {
      send({ type: 'failed', error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    });
  });
  // The parent went away (crash, Ctrl-C): never outlive it.
  process.on('disconnect', () => process.exit(0));

  async function handle(message: ParentMessage): Promise<void> {
    switch (message.type) {
      case 'start':
        started = await service.start(message.options);
        send({ type: 'ready', url: started.url });
        return;
      case 'stats':
        send(processStats());
        return;
      case 'close':
        await started?.close();
        send({ type: 'closed' });
        // A normal exit, so --cpu-prof gets to write its profile.
        process.exit(0);
    }
  }
}

main().catch((error: unknown) => {
  send({ type: 'failed', error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exitCode = 1;
});
