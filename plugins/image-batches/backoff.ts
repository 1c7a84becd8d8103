// Delay before an item's next attempt: exponential in the attempt number, capped, with "equal jitter"
// (half fixed, half random) so items that failed together do not come back together. An upstream's
// Retry-After is honoured when it asks for longer, still within the cap.

export interface BackoffSettings {
  baseMs: number;
  maxMs: number;
}

export function backoffDelay(attempt: number, settings: BackoffSettings, retryAfterMs?: number, random: () => number = Math.random): number {
  const exponent = Math.max(0, attempt - 1);
  const ceiling = Math.min(settings.maxMs, settings.baseMs * 2 ** Math.min(exponent, 30));
  const jittered = ceiling / 2 + random() * (ceiling / 2);
  const wanted = retryAfterMs === undefined ? jittered : Math.max(jittered, retryAfterMs);
  return Math.round(Math.min(settings.maxMs, wanted));
}
