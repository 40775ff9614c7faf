import { can, internalAdmin, secured } from '../../kernel/operations.js';
import { listDomainClaims, resolveDomainClaim } from './disputes.js';
import { sendDomainProofLink } from './proofLinks.js';
import { checkCompanyDomain, claimCompanyDomain, listCompanyDomains, withdrawCompanyDomain } from './service.js';

const view = can('companySettings', 'view');
const edit = can('companySettings', 'edit');

/** A company's e-mail domains and their proof; internal admins settle disputes. */
export const domainOperations = [
  secured({
    operationId: 'listCompanyDomains',
    access: view,
    handler: async (_input, { deps, caller }) => ({ data: await listCompanyDomains(deps, caller) }),
  }),
  secured({
    operationId: 'claimCompanyDomain',
    access: edit,
    status: 201,
    handler: async ({ body }, { deps, caller }) => ({ data: await claimCompanyDomain(deps, caller, body) }),
  }),
  secured({
    operationId: 'checkCompanyDomain',
    access: edit,
    handler: async ({ path }, { deps, caller }) => ({ data: await checkCompanyDomain(deps, caller, path.companyDomainId) }),
  }),
  secured({
    operationId: 'sendDomainProofLink',
    access: edit,
    status: 202,
    handler: async ({ path, body }, { deps, caller }) => ({ data: await sendDomainProofLink(deps, caller, path.companyDomainId, body) }),
  }),
  secured({
    operationId: 'withdrawCompanyDomain',
    access: edit,
    handler: async ({ path }, { deps, caller }) => ({ data: await withdrawCompanyDomain(deps, caller, path.companyDomainId) }),
  }),
  secured({
    operationId: 'listDomainClaims',
    access: internalAdmin,
    handler: async (_input, { deps }) => ({ data: await listDomainClaims(deps.db) }),
  }),
  secured({
    operationId: 'resolveDomainClaim',
    access: internalAdmin,
    handler: async ({ path, body }, { deps, caller }) => ({ data: await resolveDomainClaim(deps.db, caller, path.companyDomainId, body) }),
  }),
];
