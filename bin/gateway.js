#!/usr/bin/env node
// CLI shim: the gateway runs TypeScript directly on Node >= 24 (type stripping). `npx gateway` and the
// npm scripts use the Node 24 that the project installs; a bare older `node` gets a clear message.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(`gateway needs Node 24 (found ${process.version}). Run it through npm: \`npx gateway ...\` or \`npm start\`.`);
  process.exit(1);
}
await import('../src/main.ts');
