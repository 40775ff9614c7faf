import { member, secured } from '../kernel/operations.js';
import { downloadMetadata, openDownload } from './service.js';

export const downloadOperations = [
  secured({
    operationId: 'getDownload',
    access: member,
    handler: async ({ path }, { deps, caller, log }) => openDownload(deps.db, deps.downloads, caller, path.downloadId, log),
  }),
  secured({
    operationId: 'getDownloadMetadata',
    access: member,
    handler: async ({ path }, { deps, caller, log }) => ({ data: await downloadMetadata(deps.db, caller, path.downloadId, log) }),
  }),
];
