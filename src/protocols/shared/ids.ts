// Ids and timestamps the codecs mint when an upstream supplies none.

/** Random lowercase hex; Web Crypto is a global, so codecs need no `node:` import to make ids. */
export function randomHex(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(Math.ceil(length / 2)));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, length);
}

/** `prefix` followed by 24 hex digits (96 random bits), the length every protocol's ids have used. */
export function randomId(prefix: string): string {
  return `${prefix}${randomHex(24)}`;
}

export function unixSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
