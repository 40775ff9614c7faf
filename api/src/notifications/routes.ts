import { can, internalAdmin, member, secured } from '../kernel/operations.js';
import { getPreferences, updatePreferences } from './preferences.js';
import { getCompanySettings, getUserSettings, outbox, putCompanySettings, putUserSettings, webhookPolicy } from './service.js';

export const notificationOperations = [
  secured({
    operationId: 'getUserNotificationSettings',
    access: member,
    handler: async (_input, { deps, caller }) => ({ data: await getUserSettings(deps.db, caller) }),
  }),
  secured({
    operationId: 'updateUserNotificationSettings',
    access: member,
    handler: async ({ body }, { deps, caller }) => ({ data: await putUserSettings(deps.db, caller, body) }),
  }),
  secured({
    operationId: 'getNotificationPreferences',
    access: member,
    handler: async (_input, { deps, caller }) => ({ data: await getPreferences(deps.db, caller) }),
  }),
  secured({
    operationId: 'updateNotificationPreferences',
    access: member,
    handler: async ({ headers, body }, { deps, caller }) => ({ data: await updatePreferences(deps.db, caller, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'getCompanyNotificationSettings',
    access: can('companySettings', 'view'),
    handler: async (_input, { deps, caller }) => ({ data: await getCompanySettings(deps.db, caller) }),
  }),
  secured({
    operationId: 'updateCompanyNotificationSettings',
    access: can('companySettings', 'edit'),
    handler: async ({ body }, { deps, caller }) => ({
      data: await putCompanySettings(deps.db, caller, body, webhookPolicy(deps.config)),
    }),
  }),
  secured({
    operationId: 'listOutboxEmails',
    access: internalAdmin,
    handler: async ({ query }, { deps }) => ({ data: await outbox(deps.db, query.to) }),
  }),
];
