// Responses id conventions; the JSON guards and validators the codec uses live in ../shared/.
import { randomHex } from '../shared/ids.ts';

/** Ids by convention (protocols.md §8.16): resp_, msg_, fc_, rs_, call_. */
export function newId(prefix: 'resp' | 'msg' | 'fc' | 'rs' | 'call'): string {
  return `${prefix}_${randomHex(prefix === 'call' ? 24 : 32)}`;
}
