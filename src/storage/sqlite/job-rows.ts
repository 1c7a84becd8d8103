// Agenda JobParameters ⇄ agenda_jobs rows. Column names follow @agendajs/postgres-backend's table.
import { toJobId } from 'agenda';
import type { JobParameters } from 'agenda';
import type { Params, Row } from './database.ts';
import { numeric, millisOrNull, optionalDate, optionalNumeric, optionalText, text } from './rows.ts';

function optionalJson(row: Row, column: string): unknown {
  const value = optionalText(row, column);
  return value === undefined ? undefined : JSON.parse(value);
}

function parseRepeatInterval(row: Row): string | number | undefined {
  const value = optionalJson(row, 'repeat_interval');
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
}

function parseSkipDays(row: Row): number[] | undefined {
  const value = optionalJson(row, 'skip_days');
  return Array.isArray(value) ? value.filter((day): day is number => typeof day === 'number') : undefined;
}

export function rowToJob<DATA = unknown>(row: Row): JobParameters<DATA> {
  // Job data is whatever the caller stored as JSON; Agenda's own repositories hand it back the same untyped way.
  const data: DATA = JSON.parse(text(row, 'data'));
  return {
    _id: toJobId(text(row, 'id')),
    name: text(row, 'name'),
    priority: numeric(row, 'priority'),
    nextRunAt: optionalDate(row, 'next_run_at') ?? null,
    type: text(row, 'type') === 'single' ? 'single' : 'normal',
    lockedAt: optionalDate(row, 'locked_at'),
    lastFinishedAt: optionalDate(row, 'last_finished_at'),
    failedAt: optionalDate(row, 'failed_at'),
    failCount: optionalNumeric(row, 'fail_count'),
    failReason: optionalText(row, 'fail_reason'),
    repeatTimezone: optionalText(row, 'repeat_timezone'),
    lastRunAt: optionalDate(row, 'last_run_at'),
    repeatInterval: parseRepeatInterval(row),
    data,
    repeatAt: optionalText(row, 'repeat_at'),
    disabled: numeric(row, 'disabled') === 1,
    progress: optionalNumeric(row, 'progress'),
    fork: numeric(row, 'fork') === 1,
    lastModifiedBy: optionalText(row, 'last_modified_by'),
    debounceStartedAt: optionalDate(row, 'debounce_started_at'),
    startDate: optionalDate(row, 'start_date'),
    endDate: optionalDate(row, 'end_date'),
    skipDays: parseSkipDays(row),
  };
}

/** Columns a caller's `job.save()` may set; processor-managed fields (lock, run and failure times) are left alone. */
export const DEFINITION_COLUMNS = [
  'name', 'priority', 'next_run_at', 'type', 'repeat_timezone', 'repeat_interval', 'data', 'repeat_at',
  'disabled', 'fork', 'last_modified_by', 'start_date', 'end_date', 'skip_days',
] as const;

export function definitionValues(job: JobParameters<unknown>, lastModifiedBy: string | undefined): Params {
  return [
    job.name,
    job.priority ?? 0,
    millisOrNull(job.nextRunAt),
    job.type ?? 'normal',
    job.repeatTimezone ?? null,
    job.repeatInterval === undefined ? null : JSON.stringify(job.repeatInterval),
    JSON.stringify(job.data ?? null),
    job.repeatAt ?? null,
    job.disabled ? 1 : 0,
    job.fork ? 1 : 0,
    lastModifiedBy ?? null,
    millisOrNull(job.startDate),
    millisOrNull(job.endDate),
    job.skipDays ? JSON.stringify(job.skipDays) : null,
  ];
}

/** The fields Job.run()/touch() persist while processing (JobRepository.saveJobState). */
export function stateValues(job: JobParameters, lastModifiedBy: string | undefined): Params {
  return [
    millisOrNull(job.lockedAt),
    millisOrNull(job.nextRunAt),
    millisOrNull(job.lastRunAt),
    job.progress ?? null,
    job.failReason ?? null,
    job.failCount ?? null,
    millisOrNull(job.failedAt),
    millisOrNull(job.lastFinishedAt),
    lastModifiedBy ?? null,
  ];
}
