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
    handler: async (_input, ctx) => ({ data: await listCompanyDomains(ctx) }),
  }),
  secured({
    operationId: 'claimCompanyDomain',
    access: edit,
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await claimCompanyDomain(ctx, body) }),
  }),
  secured({
    operationId: 'checkCompanyDomain',
    access: edit,
    handler: async ({ path }, ctx) => ({ data: await checkCompanyDomain(ctx, path.companyDomainId) }),
  }),
  secured({
    operationId: 'sendDomainProofLink',
    access: edit,
    status: 202,
    handler: async ({ path, body }, ctx) => ({ data: await sendDomainProofLink(ctx, path.companyDomainId, body) }),
  }),
  secured({
    operationId: 'withdrawCompanyDomain',
    access: edit,
    handler: async ({ path }, ctx) => ({ data: await withdrawCompanyDomain(ctx, path.companyDomainId) }),
  }),
  secured({
    operationId: 'listDomainClaims',
    access: internalAdmin,
    handler: async (_input, ctx) => ({ data: await listDomainClaims(ctx) }),
  }),
  secured({
    operationId: 'resolveDomainClaim',
    access: internalAdmin,
    handler: async ({ path, body }, ctx) => ({ data: await resolveDomainClaim(ctx, path.companyDomainId, body) }),
  }),
];
