import { defineModule } from '../kernel/modules.js';
import { domainProofRoutes } from './domains/proofLinks.js';
import { domainOperations } from './domains/routes.js';
import { identityOperations } from './routes.js';
import { ssoOperations } from './sso/routes.js';
import { seedProvenDomain } from './domains/service.js';

declare module '../platform/events.js' {
  interface DomainEvents {
    'account.provisioned': { roles: string[]; isCandidate: boolean; invited: boolean; byInternalAdmin: boolean };
    'account.activated': Record<string, never>;
    'invitation.sent': { resent: boolean };
    'invitation.revoked': Record<string, never>;
    'password.reset': Record<string, never>;
    'api_token.created': Record<string, never>;
    'api_token.revoked': Record<string, never>;
  }
}

export default defineModule({
  // A company's e-mail domains (proven, then routing sign-in and market participation) are identity's.
  operations: [...identityOperations, ...ssoOperations, ...domainOperations],
  permissions: ['users', 'companySettings'],
  // Whichever identity provider runs: the link is opened by whoever holds the mailbox.
  pages: [domainProofRoutes],
  // The demo's domains are proven by the seed, and recorded as such.
  async demo(trx, company) {
    for (const domain of company.domains) await seedProvenDomain(trx, company.companyId, domain);
  },
});
