import type { components } from '../contract-types.js';
import { HttpError } from '../kernel/errors.js';
import { type FlagName, flagDefaults } from './flags.js';
import type { PermissionMap } from './permissions.js';

export type RoleRef = components['schemas']['RoleRef'];

/** The scope every company-owned store function demands: it cannot be called without one. */
export interface CompanyScope {
  companyId: string;
}

/**
 * The rows of a query by employee key alone that belong to the company, without their company
 * column. Naming the company in such a query lets SQLite read the company's every row through its
 * company-wide index instead of these few through theirs, so the company is checked here, per row.
 */
export function rowsOfCompany<T extends { company_id: string }>(scope: CompanyScope, rows: T[]): Omit<T, 'company_id'>[] {
  const out: Omit<T, 'company_id'>[] = [];
  for (const { company_id: companyId, ...row } of rows) if (companyId === scope.companyId) out.push(row);
  return out;
}

export interface ViewAsState {
  sessionId: string;
  mode: 'user' | 'company';
  adminUserId: string;
  adminEmail: string;
}

/** Who is calling, after authentication (and, for internal admins, view-as). */
export interface Caller {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  companyId: string | null;
  isInternalAdmin: boolean;
  isCandidate: boolean;
  emailVerified: boolean;
  termsAcceptedAt: string | null;
  roles: RoleRef[];
  permissions: PermissionMap;
  allRolePermissions: PermissionMap;
  flags: Record<FlagName, boolean>;
  viewAs: ViewAsState | null;
  via: 'signIn' | 'apiToken';
  /** The API token's id (via `apiToken`), so revoking it can end what it opened. */
  apiTokenId?: string;
  /** The built-in provider's session of the sign-in token (via `signIn`), so logging out can end it. */
  signInSession?: string;
}

/** The caller's company scope; a person without a company is sent to create one. */
export function companyScope(caller: Caller): CompanyScope {
  if (!caller.companyId) {
    throw new HttpError(403, 'no_company', { message: 'Create or join a company first.' });
  }
  return { companyId: caller.companyId };
}

/**
 * An actor that is no signed-in user (a candidate by their link, or the product itself: an expiry, a
 * scheduled close) as the caller of a workflow transition: no roles, no permissions, default flags.
 */
export function actorFor(userId: string, companyId: string, options: { isCandidate?: boolean } = {}): Caller {
  return {
    userId,
    email: '',
    firstName: '',
    lastName: '',
    companyId,
    isInternalAdmin: false,
    isCandidate: options.isCandidate ?? false,
    emailVerified: false,
    termsAcceptedAt: null,
    roles: [],
    permissions: {},
    allRolePermissions: {},
    flags: flagDefaults(),
    viewAs: null,
    via: 'signIn',
  };
}
