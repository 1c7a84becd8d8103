// Hook storage and the runner: hooks run sequentially in plugin-chain order (the YAML order).
import type { RequestContext } from './context.ts';
import { HOOK_NAMES, type HookName, type Hooks } from './plugin.ts';

interface Registered<N extends HookName> {
  plugin: string;
  fn: Hooks[N];
}

type RequestPhaseHook = Registered<'onRequest' | 'beforeUpstream' | 'onResponse'>;

/** Synchronous hooks run back to back; only a hook that returns a promise costs a promise step. */
function runFrom(hooks: readonly RequestPhaseHook[], start: number, ctx: RequestContext): Promise<void> {
  try {
    for (let i = start; i < hooks.length; i += 1) {
      const result = hooks[i]!.fn(ctx);
      if (result !== undefined) return Promise.resolve(result).then(() => runFrom(hooks, i + 1, ctx));
    }
    return Promise.resolve();
  } catch (error) {
    return Promise.reject(error);
  }
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

  /** Runs request-phase hooks; the first throw stops the chain and propagates (as a rejection). */
  run(name: 'onRequest' | 'beforeUpstream' | 'onResponse', ctx: RequestContext): Promise<void> {
    return runFrom(this.hooks[name], 0, ctx);
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
