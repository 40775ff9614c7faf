import type { Knex } from 'knex';
import { findCompanyById } from '../access/usersStore.js';
import { notFound } from '../kernel/errors.js';

/** The parts of the data lab a company can subscribe to; internal admins switch them. */
export type DataLabFeature = 'insights' | 'agent' | 'pulseSurveys';

export const DATA_LAB_FEATURES: readonly DataLabFeature[] = ['insights', 'agent', 'pulseSurveys'];

/** What people call each feature, as the start of a sentence. */
export const DATA_LAB_FEATURE_LABELS: Record<DataLabFeature, string> = {
  insights: 'Insights',
  agent: 'The insights agent',
  pulseSurveys: 'Pulse surveys',
};

export interface DataLabSubscriptionRow {
  company_id: string;
  insights: boolean | number;
  agent: boolean | number;
  pulse_surveys: boolean | number;
  updated_by: string | null;
  updated_at: string | Date;
}

const NONE: Record<DataLabFeature, boolean> = { insights: false, agent: false, pulseSurveys: false };

export async function findSubscriptionRow(db: Knex, companyId: string): Promise<DataLabSubscriptionRow | undefined> {
  return db<DataLabSubscriptionRow>('data_lab_subscriptions').where({ company_id: companyId }).first();
}

const featuresOf = (row: DataLabSubscriptionRow | undefined): Record<DataLabFeature, boolean> =>
  row ? { insights: Boolean(row.insights), agent: Boolean(row.agent), pulseSurveys: Boolean(row.pulse_surveys) } : { ...NONE };

/** Which data-lab features the company has; a company nobody set up has none. */
export async function dataLabFeatures(db: Knex, companyId: string): Promise<Record<DataLabFeature, boolean>> {
  return featuresOf(await findSubscriptionRow(db, companyId));
}

/** 404 while the company's subscription lacks the feature: for that company its data does not exist. */
export async function requireDataLabFeature(db: Knex, companyId: string, feature: DataLabFeature): Promise<void> {
  const features = await dataLabFeatures(db, companyId);
  if (features[feature]) return;
  const company = await findCompanyById(db, companyId);
  throw notFound(`${DATA_LAB_FEATURE_LABELS[feature]} ${feature === 'pulseSurveys' ? 'are' : 'is'} not part of ${company?.name ?? 'your company'}'s data-lab subscription.`);
}

/** Sets the whole subscription (features left out are off). */
export async function saveDataLabFeatures(db: Knex, companyId: string, features: Record<DataLabFeature, boolean>, actor: string): Promise<DataLabSubscriptionRow> {
  const row = {
    company_id: companyId,
    insights: features.insights,
    agent: features.agent,
    pulse_surveys: features.pulseSurveys,
    updated_by: actor,
    updated_at: new Date().toISOString(),
  };
  const existing = await findSubscriptionRow(db, companyId);
  if (existing) await db('data_lab_subscriptions').where({ company_id: companyId }).update(row);
  else await db('data_lab_subscriptions').insert(row);
  return row;
}
