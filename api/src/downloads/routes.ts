import { member, secured } from '../kernel/operations.js';
import { downloadMetadata, openDownload } from './service.js';

export const downloadOperations = [
  secured({
    operationId: 'getDownload',
    access: member,
    handler: async ({ path }, ctx) => openDownload(ctx, ctx.deps.downloads, ctx.caller, path.downloadId, ctx.log),
  }),
  secured({
    operationId: 'getDownloadMetadata',
    access: member,
    handler: async ({ path }, ctx) => ({ data: await downloadMetadata(ctx, path.downloadId, ctx.log) }),
  }),
];
