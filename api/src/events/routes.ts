import { operation, publicAccess } from '../kernel/operations.js';
import { recordEvent } from './service.js';

export const eventOperations = [
  operation({
    operationId: 'trackEvent',
    access: publicAccess,
    status: 202,
    handler: async ({ body }, ctx) => ({ data: await recordEvent(ctx, 'track', body) }),
  }),
  operation({
    operationId: 'identifyEvent',
    access: publicAccess,
    status: 202,
    handler: async ({ body }, ctx) => ({ data: await recordEvent(ctx, 'identify', body) }),
  }),
  operation({
    operationId: 'pageEvent',
    access: publicAccess,
    status: 202,
    handler: async ({ body }, ctx) => ({ data: await recordEvent(ctx, 'page', body) }),
  }),
];
