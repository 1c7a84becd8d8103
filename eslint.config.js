// Lint rules, including the import-direction rules from docs: codecs are pure, plugins use only the public API.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2024, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/protocols/**/*.ts'],
    rules: restrict([
      { group: ['express', 'node:http', 'node:net', 'winston', 'http-proxy-middleware'], message: 'Codecs are pure: no I/O, no Express, no logger.' },
      { group: ['../config/*', '../core/*', '../proxy/*', '../routing/*', '../providers/*', '../storage/*', '../app.ts'], message: 'Codecs import nothing of ours but their own types.' },
    ]),
  },
  {
    files: ['src/errors/**/*.ts'],
    rules: restrict([{ group: ['../config/*', '../core/*', '../proxy/*', '../routing/*', '../providers/*', '../app.ts', 'express'], message: 'errors/ sits at the bottom of the import graph.' }]),
  },
  {
    files: ['src/config/**/*.ts', 'src/routing/**/*.ts'],
    rules: restrict([{ group: ['../proxy/*', '../app.ts', '../main.ts', 'express', 'http-proxy-middleware'], message: 'config/ and routing/ may not depend on the HTTP layers.' }]),
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/proxy/**'],
    rules: restrict([{ group: ['http-proxy-middleware'], message: 'Keep http-proxy-middleware confined to src/proxy/.' }]),
  },
  {
    files: ['plugins/**/*.ts'],
    rules: restrict([
      { group: ['../../src/*/**', '../../../src/*/**', '!../../src/index.ts', '!../../../src/index.ts'], message: 'Plugins import only src/index.ts.' },
      { group: ['../auth/*', '../logging/*', '../rate-limit/*', '../protocol-translate/*', '../image-batches/*', '../examples/*'], message: 'Plugins never import each other.' },
    ]),
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/no-unused-expressions': 'off' },
  },
);
