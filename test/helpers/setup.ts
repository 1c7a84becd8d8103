// Mocha root setup: tests never reach the network, and the SDKs never pick up a developer's real
// base URLs or keys from the environment.
import nock from 'nock';

const SDK_ENV = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'OPENAI_ORG_ID',
  'OPENAI_PROJECT_ID',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'ANTHROPIC_BASE_URL',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'GOOGLE_GEMINI_BASE_URL',
  'GOOGLE_GENAI_USE_VERTEXAI',
  'GATEWAY_CONFIG',
  'GATEWAY_API_KEY',
  'PORT',
];
for (const name of SDK_ENV) delete process.env[name];

nock.disableNetConnect();
nock.enableNetConnect(/^(127\.0\.0\.1|localhost)(:\d+)?$/);

export const mochaHooks = {
  afterEach(): void {
    nock.cleanAll();
  },
};
