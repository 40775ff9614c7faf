import type { Caller } from '../access/caller.js';
import { moduleStates } from '../access/flags.js';
import type { ApiTokenRow } from '../access/store.js';
import type { components } from '../contract-types.js';
import { isoTimestampOrNull } from '../db/timestamps.js';


export function presentPerson(caller: Caller): components['schemas']['Person'] {
  return {
    id: caller.userId,
    email: caller.email,
    firstName: caller.firstName,
    lastName: caller.lastName,
    companyId: caller.companyId,
    isCandidate: caller.isCandidate,
    isInternalAdmin: caller.isInternalAdmin,
    emailVerified: caller.emailVerified,
    termsAcceptedAt: caller.termsAcceptedAt,
    companyRolesV2: caller.roles,
    permissionsV3: caller.permissions,
    allRolePermissions: caller.allRolePermissions,
    modules: caller.companyId ? moduleStates(caller.flags, caller.permissions) : [],
    viewAs: caller.viewAs ? { sessionId: caller.viewAs.sessionId, mode: caller.viewAs.mode, adminEmail: caller.viewAs.adminEmail } : null,
  };
}

export function presentToken(row: ApiTokenRow): components['schemas']['ApiToken'] {
  return {
    id: row.id,
    name: row.name,
    prefix: row.token_prefix,
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: isoTimestampOrNull(row.expires_at),
    lastUsedAt: isoTimestampOrNull(row.last_used_at),
    revokedAt: isoTimestampOrNull(row.revoked_at),
  };
}
