// Canonical internal representation (IR) shared by the four protocol codecs.
// It is richer than any single protocol so that a decode → encode round trip loses only what the
// target protocol cannot carry; codecs report such losses in `dropped` instead of failing silently.

export type ClientProtocol = 'chat' | 'responses' | 'messages' | 'gemini';

/** Vendor family that produced an opaque token (signatures never cross vendors). */
export type Vendor = 'openai' | 'anthropic' | 'gemini';

export type IRImageSource =
  | { kind: 'base64'; mediaType: string; data: string }
  | { kind: 'url'; url: string };

export interface IRTextBlock {
  type: 'text';
  text: string;
}

export interface IRImageBlock {
  type: 'image';
  source: IRImageSource;
  detail?: 'auto' | 'low' | 'high';
}

/** A document (PDF or plain text) given as bytes. */
export interface IRDocumentBlock {
  type: 'document';
  mediaType: string;
  data: string;
  filename?: string;
}

export interface IRToolCallBlock {
  type: 'tool_call';
  /** Opaque call id, passed through unchanged between protocols (synthesised only when the source has none). */
  id: string;
  name: string;
  /** JSON-encoded arguments object, as a string (Chat/Responses form). */
  arguments: string;
  /** Gemini `thoughtSignature` carried on the functionCall part. */
  signature?: { vendor: Vendor; value: string };
}

export interface IRToolResultBlock {
  type: 'tool_result';
  callId: string;
  /** Function name when the source carries it (Gemini needs it; codecs look it up from history otherwise). */
  name?: string;
  content: Array<IRTextBlock | IRImageBlock>;
  isError?: boolean;
}

export interface IRReasoningBlock {
  type: 'reasoning';
  text: string;
  /** Opaque token that must be echoed back to the same vendor (Anthropic signature, Gemini thoughtSignature, OpenAI encrypted_content). */
  signature?: { vendor: Vendor; value: string };
  /** Anthropic redacted_thinking payload. */
  redacted?: string;
}

export type IRBlock =
  | IRTextBlock
  | IRImageBlock
  | IRDocumentBlock
  | IRToolCallBlock
  | IRToolResultBlock
  | IRReasoningBlock;

/** Tool results live in `user` messages (the Anthropic form); codecs split/merge them for their protocol. */
export interface IRMessage {
  role: 'user' | 'assistant';
  content: IRBlock[];
}

export interface IRTool {
  name: string;
  description?: string;
  /** Plain JSON Schema (lower-case types). Absent = no arguments. */
  parameters?: Record<string, unknown>;
  strict?: boolean;
}

export type IRToolChoice =
  | { type: 'auto' }
  | { type: 'none' }
  | { type: 'required' }
  | { type: 'tool'; name: string }
  | { type: 'allowed'; mode: 'auto' | 'required'; names: string[] };

export type IRResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name?: string; description?: string; schema: Record<string, unknown>; strict?: boolean };

export type IREffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

export interface IRReasoningConfig {
  enabled: boolean;
  effort?: IREffort;
  budgetTokens?: number;
  /** Ask for thought summaries / thinking blocks to be returned. */
  includeThoughts?: boolean;
}

export interface IRRequest {
  /** Model name as the client asked for it (routing rewrites it per target). */
  model: string;
  system?: string;
  messages: IRMessage[];
  tools?: IRTool[];
  toolChoice?: IRToolChoice;
  parallelToolCalls?: boolean;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stop?: string[];
  n?: number;
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  responseFormat?: IRResponseFormat;
  reasoning?: IRReasoningConfig;
  user?: string;
  stream: boolean;
  /** Chat clients only get stream usage when they ask for it; other protocols always do. */
  includeUsage?: boolean;
  /** Fields the client sent that the gateway could not carry into the IR (for `x-gateway-dropped`). */
  dropped?: string[];
}

export type IRStopReason =
  | 'end_turn'
  | 'max_tokens'
  | 'stop_sequence'
  | 'tool_use'
  | 'content_filter'
  | 'pause_turn'
  | 'context_window_exceeded';

export interface IRUsage {
  /** Prompt tokens INCLUDING cache reads and writes (OpenAI/Gemini convention). */
  inputTokens: number;
  /** Output tokens INCLUDING reasoning tokens (OpenAI/Anthropic convention). */
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  reasoningTokens?: number;
}

export interface IRResponse {
  id: string;
  model: string;
  /** Unix seconds. */
  created: number;
  content: IRBlock[];
  stopReason: IRStopReason;
  stopSequence?: string;
  usage?: IRUsage;
}

/**
 * Stream events. Blocks are opened, filled and closed one at a time in index order (like Anthropic's
 * grammar); decoders of protocols that interleave (Chat tool-call indexes) serialise them.
 */
export type IRStreamEvent =
  | { type: 'start'; id?: string; model?: string; usage?: Partial<IRUsage> }
  | { type: 'block_start'; index: number; block: IRStreamBlockStart }
  | { type: 'block_delta'; index: number; delta: IRStreamDelta }
  | { type: 'block_stop'; index: number }
  | { type: 'usage'; usage: Partial<IRUsage> }
  | { type: 'finish'; stopReason: IRStopReason; stopSequence?: string }
  | { type: 'error'; error: IRError };

export type IRStreamBlockStart =
  | { type: 'text' }
  | { type: 'reasoning'; redacted?: string }
  | { type: 'tool_call'; id: string; name: string; signature?: { vendor: Vendor; value: string } };

export type IRStreamDelta =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'signature'; signature: { vendor: Vendor; value: string } }
  | { type: 'arguments'; partialJson: string };

/** Protocol-neutral error: HTTP status plus a stable gateway-ish kind and a message safe to show clients. */
export interface IRError {
  status: number;
  kind: IRErrorKind;
  message: string;
  /** Optional machine code (OpenAI `code`, e.g. `model_not_found`, `rate_limit_exceeded`). */
  code?: string;
  param?: string;
}

export type IRErrorKind =
  | 'invalid_request'
  | 'authentication'
  | 'permission'
  | 'not_found'
  | 'method_not_allowed'
  | 'request_too_large'
  | 'rate_limit'
  | 'server_error'
  | 'overloaded'
  | 'unavailable'
  | 'timeout'
  | 'not_implemented';
