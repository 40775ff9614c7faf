import { can, internalAdmin, member, secured } from '../kernel/operations.js';
import { getPreferences, updatePreferences } from './preferences.js';
import { getCompanySettings, getUserSettings, outbox, putCompanySettings, putUserSettings, webhookPolicy } from './service.js';

export const notificationOperations = [
  secured({
    operationId: 'getUserNotificationSettings',
    access: member,
    handler: async (_input, ctx) => ({ data: await getUserSettings(ctx) }),
  }),
  secured({
    operationId: 'updateUserNotificationSettings',
    access: member,
    handler: async ({ body }, ctx) => ({ data: await putUserSettings(ctx, body) }),
  }),
  secured({
    operationId: 'getNotificationPreferences',
    access: member,
    handler: async (_input, ctx) => ({ data: await getPreferences(ctx) }),
  }),
  secured({
    operationId: 'updateNotificationPreferences',
    access: member,
    handler: async ({ headers, body }, ctx) => ({ data: await updatePreferences(ctx, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'getCompanyNotificationSettings',
    access: can('companySettings', 'view'),
    handler: async (_input, ctx) => ({ data: await getCompanySettings(ctx) }),
  }),
  secured({
    operationId: 'updateCompanyNotificationSettings',
    access: can('companySettings', 'edit'),
    handler: async ({ body }, ctx) => ({
      data: await putCompanySettings(ctx, body, webhookPolicy(ctx.deps.config)),
    }),
  }),
  secured({
    operationId: 'listOutboxEmails',
    access: internalAdmin,
    handler: async ({ query }, ctx) => ({ data: await outbox(ctx, query.to) }),
  }),
];
