import { useEffect } from 'react';
import type { components } from '../../../openapi.d.ts';
import { useQuery } from './client';
import { normaliseError } from './errors';
import { logError } from './log';

type CompanySettings = components['schemas']['CompanySettings'];

/** The company's money settings as a screen reads them (without the version a save sends back). */
export type CompanyMoney = Pick<CompanySettings, 'currency' | 'sharePrice' | 'valuation' | 'exercisePrice'>;

/** What the client assumes when the settings cannot be read (spec §3): USD, share price 0, no valuation. */
export const FALLBACK_COMPANY_MONEY: CompanyMoney = { currency: 'USD', sharePrice: 0, valuation: null, exercisePrice: null };

/**
 * The signed-in company's currency, share price, valuation and strike price. When they cannot be
 * read the client carries on with the spec's defaults (`fallback` says so) and logs the failure.
 * `enabled` false (no company yet) asks nothing.
 */
export function useCompanyMoney(enabled = true): { money: CompanyMoney | undefined; fallback: boolean } {
  const { data, error } = useQuery('/api/company/settings', enabled ? {} : null);
  useEffect(() => {
    if (error) logError('Company settings could not be loaded; using USD, share price 0 and no valuation.', normaliseError(error, { url: '/api/company/settings' }));
  }, [error]);
  if (error) return { money: FALLBACK_COMPANY_MONEY, fallback: true };
  const settings = data?.data;
  return { money: settings && { currency: settings.currency, sharePrice: settings.sharePrice, valuation: settings.valuation, exercisePrice: settings.exercisePrice }, fallback: false };
}
