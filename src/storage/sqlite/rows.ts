// Typed reads from node:sqlite rows: a wrong column type is a schema bug, so it throws instead of coercing.
import type { Row } from './database.ts';

export function text(row: Row, column: string): string {
  const value = row[column];
  if (typeof value !== 'string') throw new TypeError(`column ${column}: expected text, got ${typeof value}`);
  return value;
}

export function optionalText(row: Row, column: string): string | undefined {
  return row[column] === null || row[column] === undefined ? undefined : text(row, column);
}

export function numeric(row: Row, column: string): number {
  const value = row[column];
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  throw new TypeError(`column ${column}: expected a number, got ${typeof value}`);
}

export function optionalNumeric(row: Row, column: string): number | undefined {
  return row[column] === null || row[column] === undefined ? undefined : numeric(row, column);
}

export function date(row: Row, column: string): Date {
  return new Date(numeric(row, column));
}

export function optionalDate(row: Row, column: string): Date | undefined {
  const millis = optionalNumeric(row, column);
  return millis === undefined ? undefined : new Date(millis);
}

export function millisOrNull(value: Date | null | undefined): number | null {
  return value ? value.getTime() : null;
}
