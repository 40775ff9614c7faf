import { useEffect } from 'react';
import type { components } from '../../../openapi.d.ts';
import { useQuery } from './client';
import { normaliseError } from './errors';
import { reportFetchFailure } from './errorReporting';
import { logError } from './log';

type CompanyProfile = components['schemas']['CompanyProfile'];
type ReleaseFlagName = components['schemas']['ReleaseFlagName'];

/** What the client assumes when the company cannot be read (spec §3): USD. */
export const FALLBACK_CURRENCY = 'USD';

/**
 * The company as every member's screens need it (name, currency, app-wide release flags), from the
 * member-safe profile; its money and other settings need `companySettings` view. `enabled` false
 * (no company yet, or a candidate, who reads only their offer) asks nothing.
 */
export function useCompanyProfile(enabled = true): { profile: CompanyProfile | undefined; error: unknown } {
  const { data, error } = useQuery('/api/company/profile', enabled ? {} : null);
  return { profile: data?.data, error };
}

/**
 * The company's currency. When it cannot be read the client carries on with the spec's default
 * (`fallback` says so) and logs the failure.
 */
export function useCompanyCurrency(enabled = true): { currency: string | undefined; fallback: boolean } {
  const { profile, error } = useCompanyProfile(enabled);
  useEffect(() => {
    if (!error) return;
    logError('Company settings could not be loaded; using USD.', normaliseError(error, { url: '/api/company/profile' }));
    // The spec (§8): failed settings fetches are reported to error tracking.
    reportFetchFailure('The company settings', error);
  }, [error]);
  if (error) return { currency: FALLBACK_CURRENCY, fallback: true };
  return { currency: profile?.currency, fallback: false };
}

/** Whether an app-wide release flag is on for the signed-in member's company (false while loading or for candidates). */
export function useCompanyFlag(flag: ReleaseFlagName, enabled = true): boolean {
  return useCompanyProfile(enabled).profile?.flags.includes(flag) ?? false;
}
