// Deep-freeze: once validated, configuration is read-only for the life of the process.

/** Freezes `value` and everything reachable from it (cycles and shared objects are handled); returns it. */
export function deepFreeze<T>(value: T, seen: WeakSet<object> = new WeakSet()): T {
  if (typeof value !== 'object' || value === null || seen.has(value)) return value;
  seen.add(value);
  for (const child of Object.values(value)) deepFreeze<unknown>(child, seen);
  return Object.freeze(value);
}
