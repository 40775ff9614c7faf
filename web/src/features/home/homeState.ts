import type { components } from '../../../../openapi.d.ts';
import type { ModuleName } from '../../app/webModule';
import { type Tone } from '../../ui/Badge';

// Who the home screen is for and how each module's state reads.

export type Person = components['schemas']['Person'];

export type ModuleState = components['schemas']['ModuleState'];

/** Whose dashboard this is, from what the person may see: the whole company, their reports, or themselves. */
export type DashboardKind = 'company' | 'team' | 'own';

export function dashboardKind(person: Person): DashboardKind {
  const scopes = (person.permissionsV3.team ?? []).map((grant) => grant.scope);
  if (scopes.includes('all')) return 'company';
  if (scopes.length > 0) return 'team';
  return 'own';
}

export const stateOf = (modules: ModuleState[], module: ModuleName) => modules.find((entry) => entry.module === module);

/** A module's state in the words every tile uses: open to the person, not in their role, or off. */
export function stateText(entry: ModuleState | undefined): { text: string; tone: Tone } {
  if (entry?.authorized) return { text: 'Available', tone: 'success' };
  if (entry?.available) return { text: 'Not included in your role', tone: 'neutral' };
  return { text: 'Not switched on for your company', tone: 'neutral' };
}
