import { start as up } from './upstream.ts';
import { start as ref } from './reference-proxy.ts';
const kind = process.argv[2];
const s = kind === 'upstream' ? await up({ streamChunks: 20, chunkDelayMs: 2 }) : await ref({ target: process.argv[3]! });
console.log(s.url);
setTimeout(() => { void s.close().then(() => process.exit(0)); }, Number(process.argv[4] ?? 15) * 1000);
