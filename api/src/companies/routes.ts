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
    handler: async ({ body }, { deps, caller }) => ({ data: await createCompany(deps.db, caller, body) }),
  }),
  secured({
    operationId: 'getCompany',
    access: can('companySettings', 'view'),
    handler: async (_input, { deps, caller }) => ({ data: await getCompany(deps.db, caller) }),
  }),
  secured({
    operationId: 'getCompanySettings',
    access: can('companySettings', 'view'),
    handler: async (_input, { deps, caller }) => ({ data: await getSettings(deps.db, caller) }),
  }),
  secured({
    operationId: 'updateCompanySettings',
    access: can('companySettings', 'edit'),
    handler: async ({ body, headers }, { deps, caller }) => ({ data: await updateSettings(deps.db, caller, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'getEnterpriseTags',
    access: can('companySettings', 'view'),
    handler: async (_input, { deps, caller }) => ({ data: await enterpriseTags(deps.db, caller) }),
  }),
  secured({
    operationId: 'getCompanyProfile',
    access: colleague,
    handler: async (_input, { deps, caller }) => ({ data: await companyProfile(deps.db, caller) }),
  }),
  secured({
    operationId: 'getCompanyOnboarding',
    access: colleague,
    handler: async (_input, { deps, caller }) => ({ data: await companyOnboarding(deps.db, caller) }),
  }),
  secured({
    operationId: 'completeCompanyOnboardingStep',
    access: can('companySettings', 'edit'),
    handler: async ({ body }, { deps, caller }) => ({ data: await completeCompanyStep(deps.db, caller, body.step) }),
  }),
  secured({
    operationId: 'getDataSubmissionStatus',
    access: colleague,
    handler: async (_input, { deps, caller }) => ({ data: await dataSubmissionStatus(deps.db, caller) }),
  }),
];
