// The Agenda instance of this gateway process: lane jobs, the two recurring upkeep jobs, start-up recovery,
// and a deliberate shutdown. Wake-ups: PostgreSQL's LISTEN/NOTIFY channel when the backend has one, else an
// in-process channel, so a lane saved by this process starts without waiting for the next poll.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Agenda, InMemoryNotificationChannel } from 'agenda';
import type { Job, JobWithId } from 'agenda';
import type { Logger } from 'winston';
import type { Storage } from '../../src/index.ts';
import type { Generator } from './generate.ts';
import { EXPIRE_JOB, LANE_JOB, RECOVER_JOB, splitIntoLanes } from './lanes.ts';
import type { LaneData } from './lanes.ts';
import { expireImages, reconcileOrphans, recoverStale } from './maintenance.ts';
import type { LaneScheduler } from './maintenance.ts';
import type { Settings } from './settings.ts';
import { createLaneHandler } from './worker.ts';

export interface EngineDeps {
  storage: Storage;
  settings: Settings;
  logger: Logger;
  generator: Generator;
  /** Key names whose batches the start-up reconciliation walks. */
  owners: readonly string[];
}

/** After the shutdown deadline, how long interrupted items get to hand themselves back. */
const AFTER_INTERRUPT_MS = 5000;
const IDLE_POLL_MS = 20;
const COVERING_STATES = new Set(['running', 'scheduled', 'queued']);
const UPKEEP_LOCK_MS = 2000;

export class Engine implements LaneScheduler {
  readonly #deps: EngineDeps;
  readonly #agenda: Agenda;
  readonly #stopping = new AbortController();
  readonly #interrupt = new AbortController();
  /** Ids of jobs this process is running (from Agenda's start/complete events, which fire after the final save). */
  readonly #running = new Set<string>();
  #started = false;

  constructor(deps: EngineDeps) {
    this.#deps = deps;
    const { settings, storage } = deps;
    this.#agenda = new Agenda({
      backend: storage.agendaBackend,
      notificationChannel: storage.agendaBackend.notificationChannel ?? new InMemoryNotificationChannel(),
      name: `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
      processEvery: settings.processEvery,
      maxConcurrency: settings.lanesPerInstance + 2,
      defaultLockLifetime: settings.lockLifetimeMs,
      removeOnComplete: true,
    });
    this.#agenda.on('error', (error: Error) => deps.logger.error(`job engine: ${error.message}`));
    this.#agenda.on('start', (job: JobWithId, remote?: false) => {
      if (!remote) this.#running.add(String(job.attrs._id));
    });
    this.#agenda.on('complete', (job: JobWithId, remote?: false) => {
      if (!remote) this.#running.delete(String(job.attrs._id));
    });
  }

  async start(): Promise<void> {
    const { storage, settings, logger, generator } = this.#deps;
    const laneHandler = createLaneHandler({
      batches: storage.batches,
      blobs: storage.blobs,
      generator,
      settings,
      logger,
      stopping: this.#stopping.signal,
      interrupt: this.#interrupt.signal,
    });
    this.#agenda.define<LaneData>(LANE_JOB, laneHandler, {
      lockLifetime: settings.lockLifetimeMs,
      concurrency: settings.lanesPerInstance,
      lockLimit: settings.lanesPerInstance,
    });
    // Upkeep runs are short and touch their lock after every page, so a short lock lifetime is safe; it also
    // keeps Agenda's liveness timer (half the lock lifetime, alive even after stop()) from delaying exit.
    const upkeep = { lockLifetime: Math.min(settings.lockLifetimeMs, UPKEEP_LOCK_MS), concurrency: 1 };
    this.#agenda.define(RECOVER_JOB, async (job: Job) => void (await recoverStale(storage.batches, this, settings.lockLifetimeMs, logger, () => job.touch())), upkeep);
    this.#agenda.define(EXPIRE_JOB, async (job: Job) => void (await expireImages(storage.batches, storage.blobs, logger, () => job.touch())), upkeep);
    await this.#agenda.start();
    this.#started = true;
    // Not run immediately: start-up does the recovery below itself.
    await this.#agenda.every(settings.recoverEveryMs, RECOVER_JOB, undefined, { skipImmediate: true });
    await this.#agenda.every(settings.expireEveryMs, EXPIRE_JOB, undefined, { skipImmediate: true });
    await recoverStale(storage.batches, this, settings.lockLifetimeMs, logger);
    await expireImages(storage.batches, storage.blobs, logger);
    await reconcileOrphans(storage.batches, this, this.#deps.owners, logger);
  }

  async scheduleLanes(batchId: string, indexes: readonly number[]): Promise<void> {
    if (indexes.length === 0) return;
    const lanes = splitIntoLanes(indexes, this.#deps.settings.perBatch);
    const now = new Date();
    await Promise.all(lanes.map((lane) => this.#agenda.create<LaneData>(LANE_JOB, { batchId, indexes: lane }).schedule(now).save()));
  }

  async coveredIndexes(batchId: string): Promise<Set<number>> {
    const { jobs } = await this.#agenda.queryJobs({ name: LANE_JOB, data: { batchId } });
    const covered = new Set<number>();
    for (const job of jobs) {
      if (!COVERING_STATES.has(job.state)) continue;
      for (const index of (job.data as Partial<LaneData> | undefined)?.indexes ?? []) covered.add(index);
    }
    return covered;
  }

  /**
   * No new jobs or items; running items get the gateway's shutdown deadline to finish, then are interrupted
   * and handed back (queued again, their lanes due at once) for the next start or another instance.
   */
  async stop(): Promise<void> {
    this.#stopping.abort();
    if (!this.#started) return;
    await this.#agenda.stop();
    if (await this.#waitIdle(this.#deps.settings.shutdownTimeoutMs)) return;
    this.#deps.logger.warn(`interrupting ${this.#running.size} running image job(s) at shutdown`);
    this.#interrupt.abort();
    if (!(await this.#waitIdle(AFTER_INTERRUPT_MS))) this.#deps.logger.warn('image jobs still running after shutdown; their leases will expire');
  }

  async #waitIdle(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.#running.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
    return this.#running.size === 0;
  }
}
