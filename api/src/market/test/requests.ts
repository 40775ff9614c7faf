import { COMPANY_STAGES, OWNERSHIP_GROUPS } from '../../reference/catalog/index.js';

/** Request fragments the market's integration tests share. */
export const EVERYWHERE_US = {
  companyStages: COMPANY_STAGES.map((s) => s.id),
  companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id),
  locations: ['840'],
  industries: ['ind_all'],
};

export const TIER_ONE_TECH = {
  companyStages: ['series_b', 'series_c', 'series_d_plus'],
  companyOwnershipGroups: ['venture_backed'],
  locations: ['840_1'],
  industries: ['ind_technology'],
};

export const ENGINEERS_US = {
  compensationTypes: ['base', 'total_cash'],
  marketFilters: [EVERYWHERE_US],
  jobFamilies: ['software_engineering'],
  levels: [
    { type: 'level', id: 'p3' },
    { type: 'level', id: 'p4' },
  ],
  percentiles: [25, 50, 75],
};

/** Polls a background job until it ends. */
export async function jobEnded<T extends { status: string }>(read: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await read();
    if (['succeeded', 'failed', 'cancelled'].includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`job still ${job.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
