import { describe, expect, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { identifyEvent, pageEvent, swallowed } from '../src/app/analyticsEvents';
import { hasRole } from '../src/app/roles';
import { DEFAULT_TOAST_MS, TOAST_EXIT_MS, exitDelay } from '../src/ui/Toasts';

type Person = components['schemas']['Person'];

const person: Person = {
  id: '0190a000-0000-7000-8000-000000000001',
  email: 'ada@acme.test',
  firstName: 'Ada',
  lastName: 'Admin',
  companyId: '0190a000-0000-7000-8000-0000000000c0',
  isCandidate: false,
  isInternalAdmin: false,
  emailVerified: true,
  termsAcceptedAt: null,
  companyRolesV2: [
    { id: '0190a000-0000-7000-8000-0000000000r1', key: 'admin', name: 'Admin' },
    { id: '0190a000-0000-7000-8000-0000000000r2', key: 'people_manager', name: 'People manager' },
  ],
  permissionsV3: {},
  allRolePermissions: {},
  modules: [],
  viewAs: null,
};

describe('analytics (spec §7: page on route change, identify on sign-in, errors swallowed)', () => {
  it('names a page by its route, ids folded, the full path kept as a property', () => {
    const event = pageEvent('/shares/0190a000-0000-7000-8000-00000000abcd', 'Shared slice', 'anon-1', person.id);
    expect(event).toMatchObject({ anonymousId: 'anon-1', userId: person.id, name: '/shares/:id', properties: { path: '/shares/0190a000-0000-7000-8000-00000000abcd', title: 'Shared slice' } });
    expect(pageEvent('/home', 'Home', 'anon-1')).not.toHaveProperty('userId');
    expect(pageEvent('', 'Root', 'anon-1').name).toBe('/');
  });

  it('identifies a person by id with traits that hold no name or e-mail', () => {
    const event = identifyEvent(person, 'anon-1');
    expect(event).toMatchObject({ anonymousId: 'anon-1', userId: person.id, traits: { companyId: person.companyId, isCompanyAdmin: true, isInternalAdmin: false, isCandidate: false, viewingAs: false } });
    expect(JSON.stringify(event)).not.toContain('ada@acme.test');
    expect(JSON.stringify(event)).not.toContain('Ada');
  });

  it('swallows a rejected send and a send that throws before it returns a promise', async () => {
    await expect(swallowed(() => Promise.reject(new Error('Network Error')))).resolves.toBeUndefined();
    await expect(
      swallowed(() => {
        throw new Error('no fetch');
      }),
    ).resolves.toBeUndefined();
  });
});

describe('the role check (spec §6: roles come from companyRolesV2; a role check tests membership)', () => {
  it('is true only for a role the person holds, by key', () => {
    expect(hasRole(person, 'admin')).toBe(true);
    expect(hasRole(person, 'people_manager')).toBe(true);
    expect(hasRole(person, 'compensation_planner')).toBe(false);
    // By key, not by the name people read.
    expect(hasRole(person, 'Admin')).toBe(false);
    expect(hasRole(undefined, 'admin')).toBe(false);
    expect(hasRole({ companyRolesV2: [] }, 'admin')).toBe(false);
  });
});

describe('toasts (spec §9: default 10 s, exit 0.2 s)', () => {
  it('leave after 200 ms, at once with reduced motion', () => {
    expect(DEFAULT_TOAST_MS).toBe(10_000);
    expect(TOAST_EXIT_MS).toBe(200);
    expect(exitDelay(false)).toBe(200);
    expect(exitDelay(true)).toBe(0);
  });
});

