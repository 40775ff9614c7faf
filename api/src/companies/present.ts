import type { components } from '../contract-types.js';
import type { CompanyRow } from '../access/usersStore.js';

const MICROS = 1_000_000;

export const microsToPrice = (micros: number | null): number | null => (micros === null ? null : Number(micros) / MICROS);
export const priceToMicros = (price: number): number => Math.round(price * MICROS);

export function presentSettings(row: CompanyRow, minorUnit: number): components['schemas']['CompanySettings'] {
  return {
    currency: row.currency,
    sharePrice: microsToPrice(Number(row.share_price_micros)) ?? 0,
    valuation: row.valuation_minor === null ? null : Number(row.valuation_minor) / 10 ** minorUnit,
    exercisePrice: microsToPrice(row.exercise_price_micros === null ? null : Number(row.exercise_price_micros)),
    stockExchange: row.stock_exchange_mic ?? null,
    version: Number(row.version),
  };
}

export function presentCompany(row: CompanyRow, minorUnit: number): components['schemas']['Company'] {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    domains: JSON.parse(row.domains) as string[],
    settings: presentSettings(row, minorUnit),
    isDemo: Boolean(row.is_demo),
    createdAt: new Date(row.created_at).toISOString(),
  };
}

