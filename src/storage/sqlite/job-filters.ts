// WHERE clauses for Agenda's database-agnostic job filters, including partial matches on the JSON `data` column.
import type { JobsQueryOptions, JobsSort, RemoveJobsOptions } from 'agenda';
import { placeholders } from './database.ts';
import type { Params } from './database.ts';

export class Where {
  readonly clauses: string[] = [];
  readonly params: Params = [];

  add(clause: string, ...params: Params): this {
    this.clauses.push(clause);
    this.params.push(...params);
    return this;
  }

  get isEmpty(): boolean {
    return this.clauses.length === 0;
  }

  toSql(): string {
    return this.isEmpty ? '' : `WHERE ${this.clauses.join(' AND ')}`;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function jsonPath(keys: readonly string[]): string {
  for (const key of keys) {
    if (key.includes('"')) throw new Error(`job data filter key ${JSON.stringify(key)} may not contain a double quote`);
  }
  return `$${keys.map((key) => `."${key}"`).join('')}`;
}

/** One comparison per leaf, exact on JSON type, like MongoDB's dotted-path equality on `data.*`. */
export function addLeafMatch(where: Where, keys: readonly string[], value: unknown): void {
  const path = jsonPath(keys);
  if (value === null || value === undefined) where.add('json_extract(data, ?) IS NULL', path);
  else if (typeof value === 'boolean') where.add('json_type(data, ?) = ?', path, value ? 'true' : 'false');
  else if (typeof value === 'number') where.add(`json_type(data, ?) IN ('integer', 'real') AND json_extract(data, ?) = ?`, path, path, value);
  else if (typeof value === 'string') where.add(`json_type(data, ?) = 'text' AND json_extract(data, ?) = ?`, path, path, value);
  else where.add('json_extract(data, ?) = ?', path, JSON.stringify(value));
}

function addDataMatch(where: Where, filter: unknown, keys: readonly string[] = []): void {
  if (!isPlainObject(filter)) {
    if (keys.length === 0) where.add('data = ?', JSON.stringify(filter));
    else addLeafMatch(where, keys, filter);
    return;
  }
  for (const [key, value] of Object.entries(filter)) addDataMatch(where, value, [...keys, key]);
}

function addIdAndName(where: Where, options: RemoveJobsOptions): void {
  if (options.id !== undefined) where.add('id = ?', String(options.id));
  else if (options.ids && options.ids.length > 0) where.add(`id IN (${placeholders(options.ids.length)})`, ...options.ids.map(String));
  if (options.name) where.add('name = ?', options.name);
  else if (options.names && options.names.length > 0) where.add(`name IN (${placeholders(options.names.length)})`, ...options.names);
  else if (options.notNames && options.notNames.length > 0) where.add(`name NOT IN (${placeholders(options.notNames.length)})`, ...options.notNames);
}

/** Null when the options name no criterion: Agenda's contract is to touch nothing then. */
export function removeOptionsWhere(options: RemoveJobsOptions): Where | null {
  const where = new Where();
  addIdAndName(where, options);
  if (options.data !== undefined) addDataMatch(where, options.data);
  return where.isEmpty ? null : where;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

export function queryOptionsWhere(options: JobsQueryOptions): Where {
  const where = new Where();
  addIdAndName(where, { id: options.id, ids: options.ids, name: options.name, names: options.names });
  if (options.search) where.add(`name LIKE ? ESCAPE '\\'`, `%${escapeLike(options.search)}%`);
  if (options.data !== undefined) addDataMatch(where, options.data);
  if (options.includeDisabled === false) where.add('disabled = 0');
  return where;
}

const SORT_COLUMNS: Record<keyof JobsSort, string> = {
  nextRunAt: 'next_run_at',
  lastRunAt: 'last_run_at',
  lastFinishedAt: 'last_finished_at',
  priority: 'priority',
  name: 'name',
  data: 'data',
};

function isSortField(field: string): field is keyof JobsSort {
  return Object.hasOwn(SORT_COLUMNS, field);
}

const DEFAULT_ORDER = 'next_run_at DESC NULLS LAST, last_run_at DESC NULLS LAST';

export function orderBySql(sort: JobsSort | undefined): string {
  const parts = Object.entries(sort ?? {}).flatMap(([field, direction]) => {
    if (!isSortField(field) || (direction !== 'asc' && direction !== 'desc')) return [];
    return [`${SORT_COLUMNS[field]} ${direction === 'asc' ? 'ASC' : 'DESC'} NULLS LAST`];
  });
  return `ORDER BY ${parts.length > 0 ? parts.join(', ') : DEFAULT_ORDER}`;
}
