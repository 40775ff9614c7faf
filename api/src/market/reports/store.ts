import type { Knex } from 'knex';
import type { CompanyScope } from '../../access/caller.js';
import type { DownloadRow } from '../../downloads/store.js';

/** The company's market files still available: explorer exports and release reports. */
export async function marketDownloads(db: Knex, scope: CompanyScope, kinds: string[], now: Date): Promise<DownloadRow[]> {
  return db<DownloadRow>('downloads')
    .where({ company_id: scope.companyId })
    .whereIn('kind', kinds)
    .andWhere('expires_at', '>', now.toISOString())
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(200);
}
