// Agenda's JobRepository on the embedded database. Locking mirrors the official backends: a job is claimed by
// setting locked_at in one UPDATE, and a lock older than the definition's lockLifetime counts as abandoned.
import { computeJobState, toJobId } from 'agenda';
import type {
  JobId, JobParameters, JobRepository, JobRepositoryOptions, JobsOverview, JobsQueryOptions, JobsResult,
  JobWithState, RemoveJobsOptions,
} from 'agenda';
import { placeholders } from './database.ts';
import type { Row, SqliteDatabase } from './database.ts';
import { orderBySql, queryOptionsWhere, removeOptionsWhere } from './job-filters.ts';
import { rowToJob, stateValues } from './job-rows.ts';
import { saveJob } from './job-save.ts';
import { millisOrNull, numeric, text } from './rows.ts';

export class SqliteJobRepository implements JobRepository {
  readonly #db: SqliteDatabase;

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  /** The database is opened (and migrated) by the storage, before any Agenda instance exists. */
  async connect(): Promise<void> {
    if (!this.#db.isOpen) throw new Error('sqlite storage is closed');
  }

  async queryJobs(options: JobsQueryOptions = {}): Promise<JobsResult> {
    const now = new Date();
    const where = queryOptionsWhere(options);
    const { skip = 0, limit = 0, state } = options;
    // A state is computed from several columns in JS, so only a stateless query can paginate in SQL.
    const paginate = !state && (limit > 0 || skip > 0);
    const page = paginate ? ` LIMIT ? OFFSET ?` : '';
    const params = paginate ? [...where.params, limit > 0 ? limit : -1, skip] : where.params;
    const rows = this.#db.all(`SELECT * FROM agenda_jobs ${where.toSql()} ${orderBySql(options.sort)}${page}`, params);
    let jobs: JobWithState[] = rows.map((row) => rowToJobWithState(row, now));
    if (state) jobs = jobs.filter((job) => (state === 'paused' ? job.disabled === true : job.state === state));
    if (paginate) {
      const total = numeric(this.#db.get(`SELECT count(*) AS n FROM agenda_jobs ${where.toSql()}`, where.params) ?? { n: 0 }, 'n');
      return { jobs, total };
    }
    const total = jobs.length;
    if (limit > 0 || skip > 0) jobs = jobs.slice(skip, limit > 0 ? skip + limit : undefined);
    return { jobs, total };
  }

  async getJobsOverview(): Promise<JobsOverview[]> {
    const now = new Date();
    const overviews = new Map<string, JobsOverview>();
    for (const row of this.#db.all('SELECT * FROM agenda_jobs ORDER BY name')) {
      const job = rowToJob(row);
      let overview = overviews.get(job.name);
      if (!overview) {
        overview = { name: job.name, total: 0, running: 0, scheduled: 0, queued: 0, completed: 0, failed: 0, repeating: 0, paused: 0 };
        overviews.set(job.name, overview);
      }
      overview.total += 1;
      overview[computeJobState(job, now)] += 1;
      if (job.disabled === true) overview.paused += 1;
    }
    return [...overviews.values()];
  }

  async getDistinctJobNames(): Promise<string[]> {
    return this.#db.all('SELECT DISTINCT name FROM agenda_jobs ORDER BY name').map((row) => text(row, 'name'));
  }

  async getJobById(id: string): Promise<JobParameters | null> {
    const row = this.#db.get('SELECT * FROM agenda_jobs WHERE id = ?', [id]);
    return row ? rowToJob(row) : null;
  }

  async getQueueSize(): Promise<number> {
    const row = this.#db.get('SELECT count(*) AS n FROM agenda_jobs WHERE next_run_at < ?', [Date.now()]);
    return row ? numeric(row, 'n') : 0;
  }

  async removeJobs(options: RemoveJobsOptions): Promise<number> {
    const where = removeOptionsWhere(options);
    return where ? this.#db.run(`DELETE FROM agenda_jobs ${where.toSql()}`, where.params) : 0;
  }

  async saveJob<DATA = unknown>(job: JobParameters<DATA>, options: JobRepositoryOptions | undefined): Promise<JobParameters<DATA>> {
    const now = new Date();
    return this.#db.transaction(() => saveJob(this.#db, job, options, now));
  }

  async saveJobState(job: JobParameters, options: JobRepositoryOptions | undefined): Promise<void> {
    if (!job._id) throw new Error('Cannot save job state without job ID');
    const changes = this.#db.run(
      `UPDATE agenda_jobs SET locked_at = ?, next_run_at = ?, last_run_at = ?, progress = ?, fail_reason = ?,
         fail_count = ?, failed_at = ?, last_finished_at = ?, last_modified_by = ?
       WHERE id = ? AND name = ?`,
      [...stateValues(job, options?.lastModifiedBy), String(job._id), job.name],
    );
    if (changes !== 1) {
      throw new Error(`job ${job._id} (name: ${job.name}) cannot be updated in the database, maybe it does not exist anymore?`);
    }
  }

  /** Locks this exact job if it is still unlocked and unchanged since it was read. */
  async lockJob(job: JobParameters, options: JobRepositoryOptions | undefined): Promise<JobParameters | undefined> {
    if (!job._id) return undefined;
    const row = this.#db.get(
      `UPDATE agenda_jobs SET locked_at = ?, last_modified_by = ?
       WHERE id = ? AND name = ? AND locked_at IS NULL AND next_run_at IS ? AND disabled = 0 RETURNING *`,
      [Date.now(), options?.lastModifiedBy ?? null, String(job._id), job.name, millisOrNull(job.nextRunAt)],
    );
    return row ? rowToJob(row) : undefined;
  }

  /** Jobs that already started (nextRunAt null) keep their lock, so a crash leaves them to lock expiry. */
  async unlockJob(job: JobParameters): Promise<void> {
    if (!job._id) return;
    this.#db.run('UPDATE agenda_jobs SET locked_at = NULL WHERE id = ? AND next_run_at IS NOT NULL', [String(job._id)]);
  }

  async unlockJobs(jobIds: (JobId | string)[]): Promise<void> {
    if (jobIds.length === 0) return;
    this.#db.run(`UPDATE agenda_jobs SET locked_at = NULL WHERE id IN (${placeholders(jobIds.length)})`, jobIds.map(String));
  }

  /**
   * One UPDATE picks and locks the next due job: unlocked and due before the next scan, or locked before
   * `lockDeadline` (its worker died or overran lockLifetime). SQLite runs the statement under its write lock,
   * so two processes can never lock the same row.
   */
  async getNextJobToRun(
    jobName: string,
    nextScanAt: Date,
    lockDeadline: Date,
    now: Date | undefined,
    options: JobRepositoryOptions | undefined,
  ): Promise<JobParameters | undefined> {
    const row = this.#db.get(
      `UPDATE agenda_jobs SET locked_at = ?, last_modified_by = ?
       WHERE id = (
         SELECT id FROM agenda_jobs
         WHERE name = ? AND disabled = 0
           AND ((locked_at IS NULL AND next_run_at <= ?) OR locked_at <= ?)
         ORDER BY next_run_at ASC NULLS LAST, priority DESC
         LIMIT 1
       )
       RETURNING *`,
      [(now ?? new Date()).getTime(), options?.lastModifiedBy ?? null, jobName, nextScanAt.getTime(), lockDeadline.getTime()],
    );
    return row ? rowToJob(row) : undefined;
  }

  async disableJobs(options: RemoveJobsOptions): Promise<number> {
    return this.#setDisabled(options, true);
  }

  async enableJobs(options: RemoveJobsOptions): Promise<number> {
    return this.#setDisabled(options, false);
  }

  async purgeAllJobs(): Promise<number> {
    return this.#db.run('DELETE FROM agenda_jobs');
  }

  #setDisabled(options: RemoveJobsOptions, disabled: boolean): number {
    const where = removeOptionsWhere(options);
    if (!where) return 0;
    return this.#db.run(`UPDATE agenda_jobs SET disabled = ? ${where.toSql()}`, [disabled ? 1 : 0, ...where.params]);
  }
}

function rowToJobWithState(row: Row, now: Date): JobWithState {
  const job = rowToJob(row);
  return { ...job, _id: toJobId(text(row, 'id')), state: computeJobState(job, now) };
}
