import type { components } from '../../../openapi.d.ts';
import { hasRole } from './roles';

type Person = components['schemas']['Person'];

/** The contract's `PageEvent` and `IdentifyEvent` (spec §3 event payloads), with free-form properties and traits. */
export interface PageEvent {
  anonymousId: string;
  userId?: string;
  timestamp: string;
  name: string;
  properties: Record<string, string>;
}
export interface IdentifyEvent {
  anonymousId: string;
  userId: string;
  timestamp: string;
  traits: Record<string, string | boolean | null>;
}

/** What a page view says: the route (ids kept out of the name), the full path as a property. */
export function pageEvent(path: string, title: string, anonymous: string, userId?: string): PageEvent {
  // A path's ids and keys name records, not pages: /shares/0190… and /shares/0191… are one page.
  const name = path.replace(/\/[0-9a-f]{8}-[0-9a-f-]{27,}(?=\/|$)/gi, '/:id').slice(0, 200) || '/';
  return { anonymousId: anonymous, ...(userId ? { userId } : {}), timestamp: new Date().toISOString(), name, properties: { path, title } };
}

/** Who signed in: their id and what analytics may know of them — no name, no e-mail. */
export function identifyEvent(person: Person, anonymous: string): IdentifyEvent {
  return {
    anonymousId: anonymous,
    userId: person.id,
    timestamp: new Date().toISOString(),
    traits: {
      companyId: person.companyId ?? null,
      isCompanyAdmin: hasRole(person, 'admin'),
      isInternalAdmin: person.isInternalAdmin,
      isCandidate: person.isCandidate,
      viewingAs: person.viewAs !== null && person.viewAs !== undefined,
    },
  };
}

/** Analytics never breaks the app (spec §7: errors swallowed): a refusal, a thrown error or no network all end here. */
export async function swallowed(send: () => Promise<unknown>): Promise<void> {
  try {
    await send();
  } catch {
    // Nothing: a lost analytics event is not the person's problem.
  }
}

