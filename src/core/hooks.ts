// Hook storage and the runner: hooks run sequentially in plugin-chain order (the YAML order).
import type { RequestContext } from './context.ts';
import { HOOK_NAMES, type HookName, type Hooks } from './plugin.ts';

interface Registered<N extends HookName> {
  plugin: string;
  fn: Hooks[N];
}

export class HookRegistry {
  private readonly hooks: { [N in HookName]: Registered<N>[] } = {
    onRequest: [],
    beforeUpstream: [],
    onResponse: [],
    onError: [],
  };

  add<N extends HookName>(name: N, plugin: string, fn: Hooks[N]): void {
    if (!HOOK_NAMES.includes(name)) throw new Error(`plugin ${plugin}: unknown hook "${String(name)}"`);
    (this.hooks[name] as Registered<N>[]).push({ plugin, fn });
  }

  count(name: HookName): number {
    return this.hooks[name].length;
  }

  /** Runs request-phase hooks; the first throw stops the chain and propagates. */
  async run(name: 'onRequest' | 'beforeUpstream' | 'onResponse', ctx: RequestContext): Promise<void> {
    for (const hook of this.hooks[name]) await hook.fn(ctx);
  }

  /** Error hooks must all run: one failing observer cannot hide the original error. */
  async runOnError(ctx: RequestContext, error: Error): Promise<Error[]> {
    const failures: Error[] = [];
    for (const hook of this.hooks.onError) {
      try {
        await hook.fn(ctx, error);
      } catch (hookError) {
        failures.push(hookError instanceof Error ? hookError : new Error(String(hookError)));
      }
    }
    return failures;
  }
}
