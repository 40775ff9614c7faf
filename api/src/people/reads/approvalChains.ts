import type { Knex } from 'knex';
import type { CompanyScope } from '../../access/caller.js';

/** An employee at the root of an org branch, as approval chains name it. */
export interface BranchEmployee {
  id: string;
  name: string;
  email: string | null;
}

type Row = { id: string; first_name: string | null; last_name: string | null; email: string | null };

const branchOf = (row: Row): BranchEmployee => ({ id: row.id, name: [row.first_name, row.last_name].filter(Boolean).join(' ') || (row.email ?? row.id), email: row.email });

/** The company's employees among `ids` (those that exist), with name and e-mail. */
export async function branchEmployeesById(db: Knex, scope: CompanyScope, ids: readonly string[]): Promise<Map<string, BranchEmployee>> {
  const found = new Map<string, BranchEmployee>();
  const wanted = [...new Set(ids)];
  for (let at = 0; at < wanted.length; at += 500) {
    const rows = (await db('employees').where({ company_id: scope.companyId }).whereIn('id', wanted.slice(at, at + 500)).select('id', 'first_name', 'last_name', 'email')) as Row[];
    for (const row of rows) found.set(row.id, branchOf(row));
  }
  return found;
}

/** The company's employees by e-mail (lower case), for files that name a branch by its manager's e-mail. */
export async function branchEmployeesByEmail(db: Knex, scope: CompanyScope, emails: readonly string[]): Promise<Map<string, BranchEmployee>> {
  const found = new Map<string, BranchEmployee>();
  const wanted = [...new Set(emails.map((email) => email.toLowerCase()))];
  for (let at = 0; at < wanted.length; at += 500) {
    const slice = wanted.slice(at, at + 500);
    const rows = (await db('employees')
      .where({ company_id: scope.companyId })
      .whereRaw(`lower(email) in (${slice.map(() => '?').join(', ')})`, slice)
      .orderBy('id')
      .select('id', 'first_name', 'last_name', 'email')) as Row[];
    for (const row of rows) if (row.email && !found.has(row.email.toLowerCase())) found.set(row.email.toLowerCase(), branchOf(row));
  }
  return found;
}
