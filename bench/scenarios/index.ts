// The scenarios `npm run bench` runs, in this order (BENCH_ONLY=<id>,<id> picks some). One module each;
// a scenario may read rows of those before it through `bench.rows`.
import type { Scenario } from '../types.ts';
import { imageBatch } from './image-batch.ts';
import { sameProtocol } from './same-protocol.ts';
import { translated } from './translated.ts';

export const SCENARIOS: readonly Scenario[] = [sameProtocol, translated, imageBatch];
