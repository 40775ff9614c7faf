import { SignJWT } from 'jose';
import { HttpError } from '../kernel/errors.js';
import { secured, signedIn } from '../kernel/operations.js';

const TOKEN_LIFETIME = '1h';

export const helpDeskOperations = [
  secured({
    operationId: 'getHelpDeskToken',
    access: signedIn,
    handler: async (_input, ctx) => {
      const secret = ctx.deps.config.helpDeskSecret;
      if (!secret) throw new HttpError(404, 'help_desk_disabled', { message: 'The help desk is not configured on this server.' });
      // The help-desk provider verifies the person by this signature (identity verification).
      const jwt = await new SignJWT({ email: ctx.caller.email, name: `${ctx.caller.firstName} ${ctx.caller.lastName}`.trim(), company_id: ctx.caller.companyId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(ctx.caller.userId)
        .setIssuedAt()
        .setExpirationTime(TOKEN_LIFETIME)
        .sign(new TextEncoder().encode(secret));
      return { data: { jwt } };
    },
  }),
];
