// Gemini thought signatures sit on the part they belong to; the IR carries a signature that sat on a plain
// text or media part as an empty signed reasoning block in front of it. These helpers put it back.
import type { IRBlock } from '../ir.ts';
import type { JsonObject } from '../shared/json.ts';

function isSignatureCarrier(block: IRBlock): block is IRBlock & { type: 'reasoning'; signature: { vendor: 'gemini'; value: string } } {
  return block.type === 'reasoning' && block.text === '' && block.redacted === undefined && block.signature?.vendor === 'gemini';
}

/** Encode blocks to parts; an empty Gemini-signed reasoning block lends its signature to the next part. */
export function encodeWithSignatures(blocks: IRBlock[], encode: (block: IRBlock, index: number) => JsonObject[]): JsonObject[] {
  const parts: JsonObject[] = [];
  let pending: string | undefined;
  blocks.forEach((block, index) => {
    if (isSignatureCarrier(block)) {
      if (pending !== undefined) parts.push({ text: '', thoughtSignature: pending });
      pending = block.signature.value;
      return;
    }
    for (const part of encode(block, index)) {
      if (pending !== undefined && part.thoughtSignature === undefined && part.functionResponse === undefined) {
        part.thoughtSignature = pending;
        pending = undefined;
      }
      parts.push(part);
    }
  });
  if (pending !== undefined) parts.push({ text: '', thoughtSignature: pending });
  return parts;
}
