// The IPC contract between the orchestrator (services.ts) and a child process (child.ts), and the shape
// every service module exports: `start(options) → { url, close }`.

export interface StartedService {
  /** http://127.0.0.1:<port> */
  url: string;
  close(): Promise<void>;
}

export interface ServiceModule {
  start(options: unknown): Promise<StartedService>;
}

export interface ProcessStats {
  /** Resident set now, bytes. */
  rss: number;
  /** Peak resident set over the process's life (VmHWM), bytes. */
  peakRss: number;
  /** V8 heap in use now, bytes (RSS growing while this stays flat is allocator slack, not a leak). */
  heapUsed: number;
  /** User + system CPU time consumed so far, µs. */
  cpuMicros: number;
  /** The system (kernel) part of cpuMicros: socket and file syscalls. */
  cpuSystemMicros: number;
}

export type ParentMessage = { type: 'start'; options: unknown } | { type: 'stats' } | { type: 'close' };

export type ChildMessage =
  | { type: 'ready'; url: string }
  | { type: 'stats'; stats: ProcessStats }
  | { type: 'closed' }
  | { type: 'failed'; error: string };

const PARENT_TYPES = new Set(['start', 'stats', 'close']);
const CHILD_TYPES = new Set(['ready', 'stats', 'closed', 'failed']);

function typeOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null && 'type' in value ? value.type : undefined;
}

export function isParentMessage(value: unknown): value is ParentMessage {
  return PARENT_TYPES.has(String(typeOf(value)));
}

export function isChildMessage(value: unknown): value is ChildMessage {
  return CHILD_TYPES.has(String(typeOf(value)));
}
