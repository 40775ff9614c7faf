import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestCompany, testDb } from '../../../test/factories.js';
import { newId } from '../../db/ids.js';
import { personTag } from '../engine/disclosure/recordKeys.js';
import { personTagsOf } from './persons.js';

/**
 * A participant's person tag survives a re-import of its people under new employee ids
 * (engine/personKeys.ts): the identities the build keeps in the database (keyed hashes of id, work
 * e-mail, name with start date) carry each person's first tag to their new row. The control: a tag
 * of the employee id alone, as before, is new for every re-imported person.
 */
const KEY = new Uint8Array(createHash('sha256').update('person identities test').digest());

interface Person {
  email: string | null;
  first: string;
  last: string;
  start: string | null;
}

const PEOPLE: Person[] = [
  { email: 'ada@reimport.test', first: 'Ada', last: 'Lovelace', start: '2021-03-01' },
  { email: 'grace@reimport.test', first: 'Grace', last: 'Hopper', start: '2020-01-15' },
  // No e-mail: known by their name and start date.
  { email: null, first: 'Alan', last: 'Turing', start: '2019-06-23' },
  // Nothing a re-import keeps but the id: a new person after it (the limit the docs state).
  { email: null, first: '', last: '', start: null },
];

let db: Knex;
let companyId: string;

/** Imports the people as active employees under new ids and employee numbers, ending the previous import's rows. */
async function importPeople(round: number, change: (person: Person) => Person = (p) => p): Promise<string[]> {
  const now = new Date();
  await db('employees').where({ company_id: companyId }).update({ status: 'terminated' });
  const ids: string[] = [];
  for (const [i, person] of PEOPLE.map(change).entries()) {
    const id = newId();
    ids.push(id);
    await db('employees').insert({
      id,
      company_id: companyId,
      employee_number: `R${round}-${i}`,
      email: person.email,
      first_name: person.first,
      last_name: person.last,
      start_date: person.start,
      title: 'Engineer',
      currency: 'USD',
      status: 'active',
      created_at: now,
      updated_at: now,
    });
  }
  return ids;
}

describe('person tags across re-imports', () => {
  beforeAll(async () => {
    db = await testDb();
    companyId = (await createTestCompany(db)).id;
  });

  it('keeps every person known by an e-mail or a name and start date, where ids alone give everyone a new tag', async () => {
    const first = await importPeople(1);
    const before = await personTagsOf(db, [companyId], KEY);
    // People seen for the first time keep the tag of their id, as before identities were kept: no one moves anew.
    first.forEach((id) => expect(before.get(id)).toBe(personTag(KEY, companyId, id)));

    const second = await importPeople(2, (p) => ({ ...p, email: p.email?.toUpperCase() ?? null, first: ` ${p.first} ` }));
    const after = await personTagsOf(db, [companyId], KEY);
    for (let i = 0; i < 3; i++) {
      expect(after.get(second[i]!)).toBe(before.get(first[i]!));
      // The control: a tag of the new employee id is somebody new.
      expect(personTag(KEY, companyId, second[i]!)).not.toBe(before.get(first[i]!));
    }
    expect(after.get(second[3]!)).not.toBe(before.get(first[3]!));

    // A third import that keeps only the e-mail (another name) still finds the first tag.
    const third = await importPeople(3, (p) => ({ ...p, last: `${p.last}-Byron` }));
    const later = await personTagsOf(db, [companyId], KEY);
    expect(later.get(third[0]!)).toBe(before.get(first[0]!));
    expect(later.get(third[1]!)).toBe(before.get(first[1]!));
    // Alan has no e-mail and a changed name: nothing stable is left, a new tag.
    expect(later.get(third[2]!)).not.toBe(before.get(first[2]!));
  });

  it('stores only keyed hashes: no id, e-mail or name is readable in the identities', async () => {
    const rows = (await db('market_person_identities').where({ company_id: companyId }).select('identity')) as { identity: string }[];
    expect(rows.length).toBeGreaterThan(0);
    for (const { identity } of rows) {
      // 64 hex digits: an HMAC under the server's key, not an unkeyed hash anyone could match an e-mail against.
      expect(identity).toMatch(/^[0-9a-f]{64}$/);
      expect(identity).not.toBe(createHash('sha256').update(`${companyId}\u0000email ada@reimport.test`).digest('hex'));
    }
  });

  it('gives two employees sharing an e-mail their own tags', async () => {
    const other = (await createTestCompany(db)).id;
    const now = new Date();
    const ids = [newId(), newId()];
    for (const [i, id] of ids.entries()) {
      await db('employees').insert({ id, company_id: other, employee_number: `S-${i}`, email: 'shared@reimport.test', title: 'Engineer', currency: 'USD', status: 'active', created_at: now, updated_at: now });
    }
    const tags = await personTagsOf(db, [other], KEY);
    expect(tags.get(ids[0]!)).not.toBe(tags.get(ids[1]!));
  });
});
