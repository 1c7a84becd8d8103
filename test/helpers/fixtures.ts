// Golden fixtures under test/fixtures/<protocol>/{requests,responses,streams}/ (shared by unit tests and fake upstreams).
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../fixtures/', import.meta.url));

export type FixtureKind = 'requests' | 'responses' | 'streams';

export function fixturePath(protocol: string, kind: FixtureKind, name: string): string {
  return `${ROOT}${protocol}/${kind}/${name}`;
}

export function fixtureText(protocol: string, kind: FixtureKind, name: string): string {
  return readFileSync(fixturePath(protocol, kind, name), 'utf8');
}

export function fixtureJson(protocol: string, kind: FixtureKind, name: string): unknown {
  return JSON.parse(fixtureText(protocol, kind, name));
}

export function fixtureNames(protocol: string, kind: FixtureKind): string[] {
  return readdirSync(`${ROOT}${protocol}/${kind}`).sort();
}
