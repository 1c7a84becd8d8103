// Reasoning tokens in `encrypted_content`. OpenAI's own encrypted reasoning passes through as-is. Other
// vendors' tokens (Anthropic thinking signatures, redacted thinking, Gemini thought signatures) are wrapped
// with a `gwsig:` prefix naming the vendor, so that a Responses client which echoes its reasoning items back
// (as Codex does) returns them to the gateway intact and the next turn of a tool loop is accepted upstream.
import type { IRReasoningBlock, Vendor } from '../ir.ts';

const PREFIX = 'gwsig:';
const VENDORS: readonly Vendor[] = ['openai', 'anthropic', 'gemini'];
const REDACTED = 'redacted';

/** The `encrypted_content` value for a reasoning block, or undefined when it carries no token. */
export function packReasoningToken(block: Pick<IRReasoningBlock, 'signature' | 'redacted'>): string | undefined {
  if (block.redacted !== undefined) return `${PREFIX}${REDACTED}:${block.redacted}`;
  if (!block.signature) return undefined;
  if (block.signature.vendor === 'openai') return block.signature.value;
  return `${PREFIX}${block.signature.vendor}:${block.signature.value}`;
}

/** `encrypted_content` → the signature/redacted fields of an IR reasoning block. */
export function unpackReasoningToken(value: string): Pick<IRReasoningBlock, 'signature' | 'redacted'> {
  if (!value.startsWith(PREFIX)) return { signature: { vendor: 'openai', value } };
  const rest = value.slice(PREFIX.length);
  const colon = rest.indexOf(':');
  const tag = rest.slice(0, colon);
  const payload = rest.slice(colon + 1);
  if (colon > 0 && tag === REDACTED) return { redacted: payload };
  if (colon > 0 && (VENDORS as readonly string[]).includes(tag)) return { signature: { vendor: tag as Vendor, value: payload } };
  return { signature: { vendor: 'openai', value } };
}
