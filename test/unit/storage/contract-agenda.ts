// Contract: the storage's Agenda backend runs real Agenda instances — each job once, with concurrency, with
// abandoned locks recovered after lockLifetime — and its JobRepository behaves like the official backends.
import { Agenda } from 'agenda';
import type { JobParameters, JobRepository } from 'agenda';
import { expect } from 'chai';
import type { Storage } from '../../../src/storage/types.ts';
import type { ContractContext } from './helpers.ts';
import { delay, waitFor } from './helpers.ts';

/** Short, so Agenda's per-job liveness timers (lockLifetime / 2) end soon after stop() and mocha can exit. */
const LOCK_LIFETIME = 1500;
const JOB_COUNT = 20;
const PER_INSTANCE_CONCURRENCY = 4;

function newAgenda(storage: Storage): Agenda {
  return new Agenda({ backend: storage.agendaBackend, processEvery: 100, maxConcurrency: 10, defaultLockLifetime: LOCK_LIFETIME });
}

async function connectedRepository(storage: Storage): Promise<JobRepository> {
  await storage.agendaBackend.connect();
  return storage.agendaBackend.repository;
}

function dueJob(name: string, data: unknown, extra: Partial<JobParameters> = {}): JobParameters {
  return { name, priority: 0, nextRunAt: new Date(Date.now() - 1000), type: 'normal', data, ...extra };
}

export function agendaRoundTripContract(context: () => ContractContext): void {
  it('runs every scheduled job exactly once across two Agenda instances with bounded concurrency', async () => {
    const [first, second] = [newAgenda(await context().storage()), newAgenda(await context().storage())];
    const runs = new Map<number, number>();
    let running = 0;
    let peak = 0;
    let completed = 0;
    for (const agenda of [first, second]) {
      agenda.define<{ n: number }>('contract-work', async (job) => {
        running += 1;
        peak = Math.max(peak, running);
        runs.set(job.attrs.data.n, (runs.get(job.attrs.data.n) ?? 0) + 1);
        await delay(25);
        running -= 1;
      }, { concurrency: PER_INSTANCE_CONCURRENCY, lockLifetime: LOCK_LIFETIME });
      agenda.on('complete', () => { completed += 1; });
    }
    try {
      await Promise.all([first.start(), second.start()]);
      for (let n = 0; n < JOB_COUNT; n += 1) await first.now('contract-work', { n });
      await waitFor('every job to complete', () => completed >= JOB_COUNT);
      await delay(250);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
    expect([...runs.keys()].sort((a, b) => a - b)).to.deep.equal(Array.from({ length: JOB_COUNT }, (_, n) => n));
    expect([...runs.values()].every((count) => count === 1), JSON.stringify([...runs])).to.equal(true);
    expect(peak).to.be.within(2, 2 * PER_INSTANCE_CONCURRENCY);
    const stored = await first.queryJobs({ name: 'contract-work', state: 'completed' });
    expect(stored.total).to.equal(JOB_COUNT);
  });

  it('re-runs a job whose worker died holding the lock, but not one locked by a live worker', async () => {
    const storage = await context().storage();
    const agenda = newAgenda(storage);
    const ran: string[] = [];
    agenda.define<{ id: string }>('contract-crash', async (job) => { ran.push(job.attrs.data.id); }, { lockLifetime: LOCK_LIFETIME });
    try {
      await agenda.ready;
      const dead = await agenda.create('contract-crash', { id: 'dead' }).save();
      const alive = await agenda.create('contract-crash', { id: 'alive' }).save();
      // What Job.run() persists when a handler starts: the lock plus a cleared nextRunAt.
      const startedLongAgo = new Date(Date.now() - 10 * LOCK_LIFETIME);
      await storage.agendaBackend.repository.saveJobState({ ...dead.attrs, lockedAt: startedLongAgo, lastRunAt: startedLongAgo, nextRunAt: null }, undefined);
      await storage.agendaBackend.repository.saveJobState({ ...alive.attrs, lockedAt: new Date(), lastRunAt: new Date(), nextRunAt: null }, undefined);
      await agenda.start();
      await waitFor('the abandoned job to run again', () => ran.includes('dead'));
      await delay(300);
    } finally {
      await agenda.stop();
    }
    expect(ran).to.deep.equal(['dead']);
  });
}

export function jobRepositoryContract(context: () => ContractContext): void {
  it('locks a due job for exactly one of two racing connections and honours the lock deadline', async () => {
    const [a, b] = [await connectedRepository(await context().storage()), await connectedRepository(await context().storage())];
    await a.saveJob(dueJob('contract-lock', { n: 1 }), undefined);
    const now = new Date();
    const nextScan = new Date(now.getTime() + 5000);
    const deadline = new Date(now.getTime() - LOCK_LIFETIME);
    const claims = await Promise.all([a.getNextJobToRun('contract-lock', nextScan, deadline, now, undefined), b.getNextJobToRun('contract-lock', nextScan, deadline, now, undefined)]);
    expect(claims.filter((claim) => claim !== undefined)).to.have.length(1);
    expect(await a.getNextJobToRun('contract-lock', nextScan, deadline, now, undefined)).to.equal(undefined);
    const later = new Date(now.getTime() + 2 * LOCK_LIFETIME);
    const relocked = await b.getNextJobToRun('contract-lock', nextScan, new Date(later.getTime() - LOCK_LIFETIME), later, undefined);
    expect(relocked?.lockedAt?.getTime()).to.equal(later.getTime());
  });

  it('does not hand out jobs that are disabled or not due before the next scan', async () => {
    const repository = await connectedRepository(await context().storage());
    await repository.saveJob(dueJob('contract-future', {}, { nextRunAt: new Date(Date.now() + 60_000) }), undefined);
    await repository.saveJob(dueJob('contract-future', {}, { disabled: true }), undefined);
    const now = new Date();
    expect(await repository.getNextJobToRun('contract-future', new Date(now.getTime() + 1000), new Date(now.getTime() - LOCK_LIFETIME), now, undefined)).to.equal(undefined);
  });

  it('saves, finds, filters by data, disables and removes jobs', async () => {
    const repository = await connectedRepository(await context().storage());
    const saved = await repository.saveJob(dueJob('contract-crud', { batchId: 'b1', index: 0 }), undefined);
    await repository.saveJob(dueJob('contract-crud', { batchId: 'b1', index: 1 }), undefined);
    await repository.saveJob(dueJob('contract-crud', { batchId: 'b2', index: 0 }), undefined);
    expect(saved._id).to.be.a('string');
    expect((await repository.getJobById(String(saved._id)))?.data).to.deep.equal({ batchId: 'b1', index: 0 });
    expect((await repository.queryJobs({ name: 'contract-crud', data: { batchId: 'b1' } })).total).to.equal(2);
    const page = await repository.queryJobs({ name: 'contract-crud', limit: 2, skip: 1 });
    expect([page.jobs.length, page.total]).to.deep.equal([2, 3]);
    expect(await repository.disableJobs({ data: { batchId: 'b2' } })).to.equal(1);
    expect((await repository.queryJobs({ name: 'contract-crud', includeDisabled: false })).total).to.equal(2);
    expect(await repository.removeJobs({ name: 'contract-crud', data: { batchId: 'b1', index: 1 } })).to.equal(1);
    expect(await repository.removeJobs({})).to.equal(0);
    expect(await repository.getDistinctJobNames()).to.deep.equal(['contract-crud']);
    expect(await repository.purgeAllJobs()).to.equal(2);
  });

  it('keeps one row per single (every) job and one per unique key', async () => {
    const repository = await connectedRepository(await context().storage());
    const single = dueJob('contract-every', {}, { type: 'single', repeatInterval: '1 hour' });
    const first = await repository.saveJob(single, undefined);
    const second = await repository.saveJob({ ...single, data: { changed: true } }, undefined);
    expect(second._id).to.equal(first._id);
    expect(second.data).to.deep.equal({ changed: true });
    const unique = dueJob('contract-unique', { batchId: 'b', index: 3 }, { unique: { 'data.batchId': 'b', 'data.index': 3 }, uniqueOpts: { insertOnly: true } });
    const one = await repository.saveJob(unique, undefined);
    const two = await repository.saveJob({ ...unique, priority: 10 }, undefined);
    expect(two._id).to.equal(one._id);
    expect(two.priority).to.equal(0);
    expect((await repository.queryJobs({ name: 'contract-unique' })).total).to.equal(1);
  });
}
