// Runs the real gateway entry point (`src/main.ts`) as a child process on Node 24, for tests of
// process behaviour: start-up, signals and exit codes.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './gateway.ts';

export interface ChildGateway {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

export function writeTempConfig(yaml: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'gateway-test-'));
  const file = path.join(dir, 'gateway.config.yaml');
  writeFileSync(file, yaml);
  return file;
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(process.execPath, [path.join(REPO_ROOT, 'src/main.ts'), ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function collectExit(child: ChildProcess): { output: () => string; exited: Promise<number | null> } {
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { output: () => output, exited };
}

/** Starts `gateway start --config file` and resolves once it logs its listening address. */
export async function startChildGateway(configFile: string, env: NodeJS.ProcessEnv = {}): Promise<ChildGateway> {
  const child = runCli(['start', '--config', configFile], env);
  const { output, exited } = collectExit(child);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${output()}`)), 15000);
    const check = (): void => {
      const match = /listening on (http:\/\/[^\s"]+)/.exec(output());
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    void exited.then((code) => reject(new Error(`gateway exited early (${code}):\n${output()}`)));
  });
  return { child, url, output, exited };
}
