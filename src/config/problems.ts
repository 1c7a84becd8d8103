// Config problems: one per mistake, each naming its YAML path (`models[1].targets[0].provider`).
// Messages never contain secret values (keys, apiKeys, header values).

export interface ConfigProblem {
  /** YAML path of the offending value, e.g. `models[1].targets[0].provider`; `''` for file-level problems. */
  path: string;
  message: string;
}

/** Object keys are strings, array indexes numbers. */
export type PathSegment = string | number;

const PLAIN_KEY = /^[A-Za-z0-9_$][\w$-]*$/;

/** `['models', 1, 'targets', 0, 'provider']` → `models[1].targets[0].provider`. */
export function formatPath(segments: readonly PathSegment[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

export function problemAt(segments: readonly PathSegment[], message: string): ConfigProblem {
  return { path: formatPath(segments), message };
}

/** `models[1].targets[0].provider: unknown provider "opnai" (did you mean "openai"?)`. */
export function formatProblem(problem: ConfigProblem): string {
  return problem.path === '' ? problem.message : `${problem.path}: ${problem.message}`;
}

/** Thrown by `loadConfig` when the file has problems; the message lists every one of them. */
export class ConfigError extends Error {
  readonly problems: readonly ConfigProblem[];
  readonly filePath: string | undefined;

  constructor(problems: readonly ConfigProblem[], filePath?: string) {
    const where = filePath ? ` in ${filePath}` : '';
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    super(`invalid gateway configuration${where} (${count}):\n  ${problems.map(formatProblem).join('\n  ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
    this.filePath = filePath;
  }
}

/** Same path and message reported twice (e.g. by two schema branches) is one problem. */
export function dedupeProblems(problems: readonly ConfigProblem[]): ConfigProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const id = formatProblem(problem);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

function collectPaths(value: unknown, segments: PathSegment[], order: Map<string, number>): void {
  order.set(formatPath(segments), order.size);
  if (Array.isArray(value)) {
    value.forEach((item: unknown, index) => collectPaths(item, [...segments, index], order));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) collectPaths(child, [...segments, key], order);
  }
}

const LAST_SEGMENT = /(?:\.[^.[\]]+|\[\d+\]|\["(?:[^"\\]|\\.)*"\])$|^[^.[\]]+$/;

function positionOf(path: string, order: ReadonlyMap<string, number>): number {
  let current = path;
  for (;;) {
    const position = order.get(current);
    if (position !== undefined) return position;
    const trimmed = current.replace(LAST_SEGMENT, '');
    if (trimmed === current) return 0;
    current = trimmed;
  }
}

/** Sorts problems into the order their paths appear in the document (stable for equal positions). */
export function sortByDocumentOrder(problems: readonly ConfigProblem[], document: unknown): ConfigProblem[] {
  const order = new Map<string, number>();
  collectPaths(document, [], order);
  return problems
    .map((problem, index) => ({ problem, index, position: positionOf(problem.path, order) }))
    .sort((a, b) => a.position - b.position || a.index - b.index)
    .map(({ problem }) => problem);
}
