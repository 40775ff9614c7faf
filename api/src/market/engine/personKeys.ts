import { createHmac } from 'node:crypto';
import { personTag } from './disclosure/recordKeys.js';

/**
 * Who a participant's employee is to the market, across re-imports (docs/market-privacy.md, person
 * tags). A record's move is drawn from its person tag; a tag made of the employee's id alone is new
 * whenever the company re-imports its people under new ids, and every new tag is a new move, so
 * releases before and after averaged narrow towards the person's pay. So each person is known by
 * every stable thing a re-import keeps — their employee id, their work e-mail, their name with
 * their start date — each as a keyed hash (an identity), and the company's identities keep the tag
 * they were first given: a re-import that keeps any one of them keeps the person's tag, and with
 * it their move.
 */

/** What of an employee names them across re-imports. */
export interface PersonIdentityFields {
  id: string;
  email: string | null;
  firstName: string;
  lastName: string;
  startDate: string | null;
}

/** The identities kept for one company: identity (hex) → person tag. */
export type KnownPersons = Map<string, number>;

/** The subkey identities are hashed under (domain-separated from every other use of the disclosure key). */
function identityKey(key: Uint8Array): Buffer {
  return createHmac('sha256', key).update('paybench market disclosure: participant identities').digest();
}

const normalised = (text: string): string => text.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ');

/**
 * An employee's identities, strongest first: their id, their work e-mail, their name with their start
 * date (a name alone is shared too often). Keyed hashes of the company and the value: nothing stored
 * can be read back or matched without the server's key.
 */
export function identitiesOf(key: Uint8Array, companyId: string, employee: PersonIdentityFields): string[] {
  const subkey = identityKey(key);
  const hash = (what: string): string => createHmac('sha256', subkey).update(`${companyId}\u0000${what}`).digest('hex');
  const identities = [hash(`id ${employee.id}`)];
  const email = employee.email ? normalised(employee.email) : '';
  if (email) identities.push(hash(`email ${email}`));
  const name = normalised(`${employee.firstName} ${employee.lastName}`);
  if (name && employee.startDate) identities.push(hash(`name ${name} started ${employee.startDate}`));
  return identities;
}

/**
 * The person tag of each of one company's employees, and the identities to keep: an employee takes
 * the tag of the first of their identities the company already knows (and no one before them in
 * this list claimed), else the tag of their id (personTag, as before identities were kept, so
 * people tagged before keep their move). Every identity of theirs not yet known is kept with it.
 */
export function assignPersons(
  key: Uint8Array,
  companyId: string,
  of: { employees: readonly PersonIdentityFields[]; known: KnownPersons },
): { persons: Map<string, number>; added: { identity: string; person: number }[] } {
  const persons = new Map<string, number>();
  const added: { identity: string; person: number }[] = [];
  const claimed = new Set<string>();
  for (const employee of of.employees) {
    const identities = identitiesOf(key, companyId, employee).filter((identity) => !claimed.has(identity));
    const found = identities.find((identity) => of.known.has(identity));
    const person = found === undefined ? personTag(key, companyId, employee.id) : of.known.get(found)!;
    persons.set(employee.id, person);
    for (const identity of identities) {
      claimed.add(identity);
      if (!of.known.has(identity)) added.push({ identity, person });
    }
  }
  return { persons, added };
}
