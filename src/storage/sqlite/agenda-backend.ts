// The AgendaBackend handed to `new Agenda({ backend })` for the embedded store. It polls (no notification
// channel): Agenda scans every `processEvery`, which is what its MongoDB backend does too.
import type { AgendaBackend, JobRepository } from 'agenda';
import type { SqliteDatabase } from './database.ts';
import { SqliteJobRepository } from './job-repository.ts';

export class SqliteAgendaBackend implements AgendaBackend {
  readonly name = 'SQLite';
  readonly repository: JobRepository;
  /** The storage owns the database connection; agenda.stop() must not close it under the batch repository. */
  readonly ownsConnection = false;

  constructor(db: SqliteDatabase) {
    this.repository = new SqliteJobRepository(db);
  }

  async connect(): Promise<void> {
    await this.repository.connect();
  }

  async disconnect(): Promise<void> {
    // Nothing to release: Storage.close() closes the shared connection.
  }
}
