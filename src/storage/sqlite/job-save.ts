// JobRepository.saveJob for sqlite: plain insert, update by id, 'single' upsert by name (every()), and unique()/
// debounce() upserts, following @agendajs/postgres-backend's semantics. Callers run it inside a transaction.
import { randomUUID } from 'node:crypto';
import type { JobParameters, JobRepositoryOptions, UniqueOpts } from 'agenda';
import type { Params, Row, SqliteDatabase } from './database.ts';
import { addLeafMatch, Where } from './job-filters.ts';
import { DEFINITION_COLUMNS, definitionValues, rowToJob } from './job-rows.ts';
import { millisOrNull } from './rows.ts';

const ASSIGN_DEFINITION = DEFINITION_COLUMNS.map((column) => `${column} = ?`).join(', ');
const INSERT_COLUMNS = ['id', ...DEFINITION_COLUMNS, 'debounce_started_at'];
const INSERT_VALUES = `INSERT INTO agenda_jobs (${INSERT_COLUMNS.join(', ')}) VALUES (${INSERT_COLUMNS.map(() => '?').join(', ')})`;
const INSERT_SQL = `${INSERT_VALUES} RETURNING *`;
/** Columns a unique() key may name directly; anything else is rejected rather than interpolated. */
const UNIQUE_COLUMNS = new Set([
  'id', 'name', 'priority', 'next_run_at', 'type', 'locked_at', 'last_finished_at', 'failed_at', 'fail_count',
  'fail_reason', 'repeat_timezone', 'last_run_at', 'repeat_interval', 'repeat_at', 'disabled', 'progress', 'fork',
  'last_modified_by', 'debounce_started_at', 'start_date', 'end_date',
]);

function mustReturn(row: Row | undefined): Row {
  if (!row) throw new Error('agenda_jobs write returned no row');
  return row;
}

function toColumnValue(value: unknown): Params[number] {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' || typeof value === 'string') return value;
  return JSON.stringify(value);
}

function uniqueWhere(name: string, unique: Record<string, unknown>): Where {
  const where = new Where().add('name = ?', name);
  for (const [key, value] of Object.entries(unique)) {
    if (key.startsWith('data.')) {
      addLeafMatch(where, key.slice('data.'.length).split('.'), value);
      continue;
    }
    const column = key.replace(/([A-Z])/g, '_$1').toLowerCase();
    if (!UNIQUE_COLUMNS.has(column)) throw new Error(`Invalid unique constraint field: "${key}"`);
    if (value === null || value === undefined) where.add(`${column} IS NULL`);
    else where.add(`${column} = ?`, toColumnValue(value));
  }
  return where;
}

function insertJob<DATA>(db: SqliteDatabase, job: JobParameters<DATA>, by: string | undefined, debounceStartedAt?: Date): JobParameters<DATA> {
  const row = db.get(INSERT_SQL, [randomUUID(), ...definitionValues(job, by), millisOrNull(debounceStartedAt)]);
  return rowToJob<DATA>(mustReturn(row));
}

function upsertSingle<DATA>(db: SqliteDatabase, job: JobParameters<DATA>, by: string | undefined, now: Date): JobParameters<DATA> {
  // A due run that is already scheduled must not be pushed back by a later every() call (Agenda's contract).
  const keepDueRun = job.nextRunAt !== null && job.nextRunAt <= now;
  const updates = DEFINITION_COLUMNS.filter((column) => column !== 'name' && column !== 'type').map((column) =>
    column === 'next_run_at' && keepDueRun ? 'next_run_at = COALESCE(agenda_jobs.next_run_at, excluded.next_run_at)' : `${column} = excluded.${column}`,
  );
  const sql = `${INSERT_VALUES}
    ON CONFLICT (name) WHERE type = 'single' DO UPDATE SET ${updates.join(', ')} RETURNING *`;
  return rowToJob<DATA>(mustReturn(db.get(sql, [randomUUID(), ...definitionValues(job, by), null])));
}

function debouncedRun(job: JobParameters<unknown>, existing: Row | undefined, options: UniqueOpts, now: Date): { nextRunAt: Date | null; startedAt: Date | undefined } {
  const debounce = options.debounce;
  if (!debounce) return { nextRunAt: job.nextRunAt, startedAt: undefined };
  const previousStart = existing && typeof existing['debounce_started_at'] === 'number' ? new Date(existing['debounce_started_at']) : undefined;
  if (debounce.strategy === 'leading') {
    const existingRun = existing && typeof existing['next_run_at'] === 'number' ? new Date(existing['next_run_at']) : undefined;
    return existing ? { nextRunAt: existingRun ?? null, startedAt: previousStart ?? now } : { nextRunAt: job.nextRunAt, startedAt: now };
  }
  const startedAt = previousStart ?? now;
  if (existing && debounce.maxWait !== undefined && now.getTime() - startedAt.getTime() >= debounce.maxWait) {
    return { nextRunAt: now, startedAt: undefined };
  }
  return { nextRunAt: new Date(now.getTime() + debounce.delay), startedAt };
}

/** Upsert for unique()/debounce(); null means "no match and nothing special": insert normally. */
function saveUnique<DATA>(db: SqliteDatabase, job: JobParameters<DATA>, by: string | undefined, now: Date): JobParameters<DATA> | null {
  const unique = job.unique ?? {};
  const options = job.uniqueOpts ?? {};
  const where = uniqueWhere(job.name, unique);
  const existing = db.get(`SELECT * FROM agenda_jobs ${where.toSql()} LIMIT 1`, where.params);
  if (existing && options.insertOnly && !options.debounce) return rowToJob<DATA>(existing);
  const run = debouncedRun(job, existing, options, now);
  if (!existing) return options.debounce ? insertJob(db, { ...job, nextRunAt: run.nextRunAt }, by, run.startedAt) : null;
  const row = db.get(
    `UPDATE agenda_jobs SET ${ASSIGN_DEFINITION}, debounce_started_at = ? WHERE id = ? RETURNING *`,
    [...definitionValues({ ...job, nextRunAt: run.nextRunAt }, by), millisOrNull(run.startedAt), existing['id'] ?? null],
  );
  return rowToJob<DATA>(mustReturn(row));
}

export function saveJob<DATA>(db: SqliteDatabase, job: JobParameters<DATA>, options: JobRepositoryOptions | undefined, now: Date): JobParameters<DATA> {
  const by = options?.lastModifiedBy;
  if (job._id) {
    const row = db.get(`UPDATE agenda_jobs SET ${ASSIGN_DEFINITION} WHERE id = ? AND name = ? RETURNING *`, [
      ...definitionValues(job, by), String(job._id), job.name,
    ]);
    // A job removed while the caller held it: Agenda expects its data back unchanged.
    return row ? rowToJob<DATA>(row) : job;
  }
  if (job.type === 'single') return upsertSingle(db, job, by, now);
  if (job.unique) {
    const saved = saveUnique(db, job, by, now);
    if (saved) return saved;
  }
  return insertJob(db, job, by);
}
