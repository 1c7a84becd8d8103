// Built-in protocol-translate plugin: installs the cross-protocol handler, so every client protocol works
// against every provider type (same-protocol requests keep the core's untouched fast path).
// What maps to what, what is dropped or rejected: docs/translation.md.
import { createTranslator, definePlugin } from '../../src/index.ts';
import type { TranslateOptions } from '../../src/index.ts';
import { translateOptionsSchema } from './schema.ts';

export default definePlugin<TranslateOptions>({
  name: 'protocol-translate',
  optionsSchema: translateOptionsSchema,
  setup({ options, gateway, logger }) {
    gateway.setTranslator(createTranslator(options, logger));
  },
});
