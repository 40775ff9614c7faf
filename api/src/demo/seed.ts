import { newId } from '../db/ids.js';
import type { Knex } from 'knex';

export const DEMO_COMPANY = {
  key: 'acme',
  name: 'Acme Robotics',
  domains: ['acme.test'],
  currency: 'USD',
  /** $18.40 a share (preferred), $6.25 strike for new options, $1.2bn valuation. */
  sharePriceMicros: 18_400_000,
  exercisePriceMicros: 6_250_000,
  valuationMinor: 120_000_000_000,
} as const;

export interface DemoSeedResult {
  created: boolean;
  companyName: string;
}

/** On an empty database only: one demo company a newcomer can explore at once. */
export async function seedDemoCompany(db: Knex): Promise<DemoSeedResult> {
  return db.transaction(async (trx) => {
    const existing = await trx('companies').count<{ count: number | string }[]>({ count: '*' }).first();
    if (Number(existing?.count ?? 0) > 0) return { created: false, companyName: DEMO_COMPANY.name };
    const now = new Date().toISOString();
    await trx('companies').insert({
      id: newId(),
      key: DEMO_COMPANY.key,
      name: DEMO_COMPANY.name,
      domains: JSON.stringify(DEMO_COMPANY.domains),
      currency: DEMO_COMPANY.currency,
      share_price_micros: DEMO_COMPANY.sharePriceMicros,
      exercise_price_micros: DEMO_COMPANY.exercisePriceMicros,
      valuation_minor: DEMO_COMPANY.valuationMinor,
      is_demo: true,
      created_at: now,
      updated_at: now,
    });
    return { created: true, companyName: DEMO_COMPANY.name };
  });
}
