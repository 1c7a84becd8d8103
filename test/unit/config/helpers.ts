// Shared by the config tests: fixture paths and a minimal valid document to vary.
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { formatProblem } from '../../../src/config/index.ts';
import type { ParseResult } from '../../../src/config/index.ts';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/config/', import.meta.url));
export const fixture = (name: string): string => `${FIXTURES}${name}`;

/** A base directory with nothing in it (plugin paths are not used by the minimal document). */
export const BASE_DIR = '/srv/gateway';

export type Doc = Record<string, unknown>;

/** The smallest valid document: one key, one mock provider, one chat model. */
export function minimal(): Doc {
  return {
    keys: [{ name: 'ops', key: 'sk-test-key-1' }],
    providers: { demo: { type: 'mock' } },
    models: [{ name: 'demo', targets: [{ provider: 'demo', model: 'echo' }] }],
  };
}

/** `path: message` lines, as `gateway validate` prints them. */
export function lines(result: Pick<ParseResult, 'problems'>): string[] {
  return result.problems.map(formatProblem);
}

export function configOf(result: ParseResult): NonNullable<ParseResult['config']> {
  expect(lines(result)).to.deep.equal([]);
  if (!result.config) throw new Error('expected a config');
  return result.config;
}
