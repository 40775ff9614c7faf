import { companyScope } from '../access/caller.js';
import { can, internalAdmin, member, operation, publicAccess, secured, signedIn } from '../kernel/operations.js';
import { checkAuthnMigration, existingCompany, provisionAccount } from './accounts.js';
import { resendEmailVerification } from './emailVerification.js';
import { resendInvitation, revokeInvitation, userInvitation } from './invitationService.js';
import { presentPerson } from './present.js';
import {
  accounts,
  acknowledgeTerms,
  completeAccount,
  completeUserStep,
  createToken,
  listTokens,
  logout,
  modules,
  preferences,
  releaseFlags,
  revoke,
  savePreferences,
  userOnboarding,
} from './service.js';

export const identityOperations = [
  operation({
    operationId: 'checkAuthnMigration',
    access: publicAccess,
    handler: async ({ body }, ctx) => ({ data: await checkAuthnMigration(ctx, body.email) }),
  }),
  secured({
    operationId: 'provisionAccount',
    access: can('users', 'edit'),
    status: 201,
    handler: async ({ body }, ctx) => ({
      data: await provisionAccount(ctx, companyScope(ctx.caller), body),
    }),
  }),
  secured({
    operationId: 'provisionCompanyAccount',
    access: internalAdmin,
    status: 201,
    handler: async ({ path, body }, ctx) => ({
      data: await provisionAccount(ctx, await existingCompany(ctx, path.companyId), body),
    }),
  }),
  secured({
    operationId: 'getUserInvitation',
    access: can('users', 'view'),
    handler: async ({ path }, ctx) => ({ data: await userInvitation(ctx, path.userId) }),
  }),
  secured({
    operationId: 'resendInvitation',
    access: can('users', 'edit'),
    handler: async ({ path }, ctx) => ({ data: await resendInvitation(ctx, path.userId) }),
  }),
  secured({
    operationId: 'revokeInvitation',
    access: can('users', 'edit'),
    handler: async ({ path }, ctx) => ({ data: await revokeInvitation(ctx, path.userId) }),
  }),
  secured({
    operationId: 'getAuthenticatedPerson',
    access: signedIn,
    handler: async (_input, ctx) => ({ data: presentPerson(ctx.caller) }),
  }),
  secured({
    operationId: 'logoutUser',
    access: signedIn,
    handler: async (_input, ctx) => ({ data: await logout(ctx) }),
  }),
  secured({
    operationId: 'acknowledgeTermsOfUse',
    access: signedIn,
    handler: async (_input, ctx) => ({ data: await acknowledgeTerms(ctx) }),
  }),
  secured({
    operationId: 'getUserPreferences',
    access: signedIn,
    handler: async (_input, ctx) => ({ data: await preferences(ctx) }),
  }),
  secured({
    operationId: 'updateUserPreferences',
    access: signedIn,
    handler: async ({ body }, ctx) => ({ data: await savePreferences(ctx, body) }),
  }),
  secured({
    operationId: 'listUserAccounts',
    access: signedIn,
    handler: async (_input, ctx) => ({ data: await accounts(ctx) }),
  }),
  secured({
    operationId: 'getUserOnboarding',
    access: signedIn,
    handler: async (_input, ctx) => ({ data: await userOnboarding(ctx) }),
  }),
  secured({
    operationId: 'completeUserOnboardingStep',
    access: signedIn,
    handler: async ({ body }, ctx) => ({ data: await completeUserStep(ctx, body.step) }),
  }),
  secured({
    operationId: 'getResolvedPermissions',
    access: signedIn,
    handler: async (_input, ctx) => ({ data: ctx.caller.permissions }),
  }),
  secured({
    operationId: 'getModules',
    access: member,
    handler: async (_input, ctx) => ({ data: modules(ctx.caller) }),
  }),
  secured({
    operationId: 'getReleaseFlags',
    access: can('companySettings', 'view'),
    handler: async (_input, ctx) => ({ data: releaseFlags(ctx.caller) }),
  }),
  secured({
    operationId: 'listApiTokens',
    access: signedIn,
    handler: async (_input, ctx) => ({ data: await listTokens(ctx) }),
  }),
  secured({
    operationId: 'createApiToken',
    access: signedIn,
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await createToken(ctx, body) }),
  }),
  secured({
    operationId: 'revokeApiToken',
    access: signedIn,
    handler: async ({ path }, ctx) => ({ data: await revoke(ctx, path.tokenId) }),
  }),
  secured({
    operationId: 'sendEmailVerification',
    access: signedIn,
    status: 202,
    handler: async (_input, ctx) => ({ data: await resendEmailVerification(ctx) }),
  }),
  secured({
    operationId: 'createAccount',
    access: signedIn,
    handler: async ({ body }, ctx) => ({ data: await completeAccount(ctx, body) }),
  }),
];
