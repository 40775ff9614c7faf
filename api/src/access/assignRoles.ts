import { HttpError } from '../kernel/errors.js';
import type { Caller } from './caller.js';
import { hasPermission } from './permissions.js';

/**
 * Whoever chooses the roles a person holds decides what that person may do, so adding people
 * (`users` edit) is not enough: every path that sets roles — creating a user, changing their roles,
 * the users import, provisioning (which sends the invitation) — asks this one question. Internal
 * admins may, as they set up customers' companies; never while viewing as someone.
 */
export function assertMayAssignRoles(caller: Caller): void {
  if (caller.isInternalAdmin && !caller.viewAs) return;
  if (hasPermission(caller.permissions, 'roles', 'edit', undefined)) return;
  throw new HttpError(403, 'forbidden', { message: 'Naming roles needs the roles permission (edit).' });
}
