// One node:sqlite connection per storage, shared by the batch repository, the blob index and the Agenda backend.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { SQLInputValue, SQLOutputValue, StatementSync } from 'node:sqlite';
import { SCHEMA_STATEMENTS, SCHEMA_VERSION } from './schema.ts';

export type Row = Record<string, SQLOutputValue>;
export type Params = SQLInputValue[];

export const DATABASE_FILE = 'gateway.db';
/** Other gateway processes may hold the write lock briefly; wait instead of failing with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

export class SqliteDatabase {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();

  constructor(directory: string) {
    mkdirSync(directory, { recursive: true });
    this.#db = new DatabaseSync(join(directory, DATABASE_FILE), { timeout: BUSY_TIMEOUT_MS });
    this.#db.exec('PRAGMA journal_mode = WAL');
    this.#db.exec('PRAGMA synchronous = NORMAL');
    this.#db.exec('PRAGMA foreign_keys = ON');
    this.#migrate();
  }

  get isOpen(): boolean {
    return this.#db.isOpen;
  }

  all(sql: string, params: Params = []): Row[] {
    return this.#prepare(sql).all(...params);
  }

  get(sql: string, params: Params = []): Row | undefined {
    return this.#prepare(sql).get(...params);
  }

  run(sql: string, params: Params = []): number {
    return Number(this.#prepare(sql).run(...params).changes);
  }

  /**
   * BEGIN IMMEDIATE takes the write lock before the first read, so a read-then-write sequence cannot interleave with
   * another process. `work` is synchronous, so nothing else in this process runs in between either.
   */
  transaction<T>(work: () => T): T {
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.#db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  close(): void {
    if (!this.#db.isOpen) return;
    this.#statements.clear();
    this.#db.close();
  }

  #prepare(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #migrate(): void {
    this.transaction(() => {
      const current = Number(this.get('PRAGMA user_version')?.['user_version'] ?? 0);
      if (current >= SCHEMA_VERSION) return;
      for (const statement of SCHEMA_STATEMENTS) this.#db.exec(statement);
      this.#db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    });
  }
}

/** `?, ?, ?` for an IN list of `count` values. */
export function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}
