import { runRequests } from './load.ts';
import { chatRequest } from './payloads.ts';
import { percentiles } from './stats.ts';
const url = process.argv[2]!;
const r = await runRequests({ url: url + '/v1/chat/completions', method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer x' }, body: chatRequest(false), connections: 10, durationS: Number(process.argv[3] ?? 8) });
console.log('rps', (r.completed / r.elapsedMs * 1000).toFixed(0), 'p50', percentiles(r.latencies).p50.toFixed(2));
