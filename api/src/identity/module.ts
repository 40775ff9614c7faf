import { defineModule } from '../kernel/modules.js';
import { identityOperations } from './routes.js';
import { ssoOperations } from './sso/routes.js';

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
  operations: [...identityOperations, ...ssoOperations],
  permissions: ['users', 'companySettings'],
});
