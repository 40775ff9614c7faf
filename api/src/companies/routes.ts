import { can, colleague, secured, signedIn } from '../kernel/operations.js';
import { companyProfile } from './profile.js';
import {
  companyOnboarding,
  dataSubmissionStatus,
  completeCompanyStep,
  createCompany,
  enterpriseTags,
  getCompany,
  getSettings,
  updateSettings,
} from './service.js';

export const companyOperations = [
  secured({
    operationId: 'createCompany',
    access: signedIn,
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await createCompany(ctx, body) }),
  }),
  secured({
    operationId: 'getCompany',
    access: can('companySettings', 'view'),
    handler: async (_input, ctx) => ({ data: await getCompany(ctx) }),
  }),
  secured({
    operationId: 'getCompanySettings',
    access: can('companySettings', 'view'),
    handler: async (_input, ctx) => ({ data: await getSettings(ctx) }),
  }),
  secured({
    operationId: 'updateCompanySettings',
    access: can('companySettings', 'edit'),
    handler: async ({ body, headers }, ctx) => ({ data: await updateSettings(ctx, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'getEnterpriseTags',
    access: can('companySettings', 'view'),
    handler: async (_input, ctx) => ({ data: await enterpriseTags(ctx) }),
  }),
  secured({
    operationId: 'getCompanyProfile',
    access: colleague,
    handler: async (_input, ctx) => ({ data: await companyProfile(ctx) }),
  }),
  secured({
    operationId: 'getCompanyOnboarding',
    access: colleague,
    handler: async (_input, ctx) => ({ data: await companyOnboarding(ctx) }),
  }),
  secured({
    operationId: 'completeCompanyOnboardingStep',
    access: can('companySettings', 'edit'),
    handler: async ({ body }, ctx) => ({ data: await completeCompanyStep(ctx, body.step) }),
  }),
  secured({
    operationId: 'getDataSubmissionStatus',
    access: colleague,
    handler: async (_input, ctx) => ({ data: await dataSubmissionStatus(ctx) }),
  }),
];
