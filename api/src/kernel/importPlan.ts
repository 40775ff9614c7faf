import type { Knex } from 'knex';
import type { components } from '../contract-types.js';
import { badRequest, type FieldError } from './errors.js';

export type ImportPlan = components['schemas']['ImportPlan'];
export type ImportChange = ImportPlan['changes'][number];

/** Problems found in a file, collected for every row before anything is written. */
export class RowProblems {
  readonly errors: FieldError[] = [];

  add(index: number, line: number, field: string, message: string): void {
    this.errors.push({ field: `rows[${index}].${field}`, message: `line ${line}: ${message}` });
  }

  /** Refuses the whole file with every problem named, so the person can fix them in one go. */
  throwIfAny(noun: string): void {
    if (!this.errors.length) return;
    const count = this.errors.length;
    throw badRequest(`The ${noun} file has ${count} problem${count === 1 ? '' : 's'}; nothing was written.`, this.errors);
  }
}

export function summarise(dryRun: boolean, changes: ImportChange[], total: number): ImportPlan {
  const create = changes.filter((change) => change.action === 'create').length;
  const update = changes.length - create;
  return { dryRun, create, update, unchanged: total - changes.length, changes };
}

/** SQLite refuses more than 500 compound selects per insert; 400 rows per statement stays clear on both engines. */
export const CHUNK = 400;

export function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/** Inserts the rows a statement's worth at a time (in the caller's transaction). */
export async function insertInChunks(db: Knex, table: string, rows: Record<string, unknown>[]): Promise<void> {
  for (const part of chunks(rows)) await db(table).insert(part);
}
