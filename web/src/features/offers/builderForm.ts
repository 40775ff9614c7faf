import { minorUnitOf, toMajorText } from '../../ui/format';
import { type Offer, type OfferPackage, type OfferPackageInput, toMinor } from './common';
import './offers.css';

// The offer builder's form: what the inputs hold, read from an offer and turned into the request.

export type GrantChoice = '' | 'option' | 'rsu';

export type Frequency = 'monthly' | 'quarterly' | 'annually';

export interface PackageForm {
  id?: string;
  label: string;
  base: string;
  bonusTargetPercent: string;
  variable: string;
  signOn: string;
  grantType: GrantChoice;
  shares: string;
  strikePrice: string;
  vestingMonths: string;
  cliffMonths: string;
  frequency: Frequency;
}

export interface OfferForm {
  candidateId: string;
  companyJobId: string;
  jobFamilyId: string;
  levelId: string;
  track: string;
  title: string;
  department: string;
  hiringManager: { id: string; name: string } | null;
  locationId: string;
  currency: string;
  startDate: string;
  expiresOn: string;
  benefitsSummary: string;
  welcomeMessage: string;
  main: PackageForm;
  alternatives: PackageForm[];
}

export const FIELD_NAMES = { candidateId: 'Candidate', jobFamilyId: 'Job family', levelId: 'Level', locationId: 'Location', startDate: 'Start date', expiresOn: 'Expires on', package: 'Package', alternatives: 'Alternative', base: 'Base', equity: 'Equity' };

export const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

export const emptyPackage = (label: string): PackageForm => ({
  label,
  base: '',
  bonusTargetPercent: '',
  variable: '',
  signOn: '',
  grantType: '',
  shares: '',
  strikePrice: '',
  vestingMonths: '48',
  cliffMonths: '12',
  frequency: 'monthly',
});

export const major = (amount: number | undefined | null, currency: string) => (amount === null || amount === undefined ? '' : toMajorText({ amount, currency }));

export function packageForm(label: string, pkg: OfferPackage, id?: string): PackageForm {
  const currency = pkg.base.currency;
  return {
    id,
    label,
    base: major(pkg.base.amount, currency),
    bonusTargetPercent: pkg.bonusTargetPercent === null ? '' : String(pkg.bonusTargetPercent),
    variable: major(pkg.variable?.amount, currency),
    signOn: major(pkg.signOn?.amount, currency),
    grantType: pkg.equity?.type ?? '',
    shares: pkg.equity ? String(pkg.equity.shares) : '',
    strikePrice: pkg.equity && !pkg.equity.strikeDefaulted && pkg.equity.strikePrice !== null ? String(pkg.equity.strikePrice) : '',
    vestingMonths: String(pkg.equity?.vestingMonths ?? 48),
    cliffMonths: String(pkg.equity?.cliffMonths ?? 12),
    frequency: pkg.equity?.vestingFrequency ?? 'monthly',
  };
}

export function formOf(offer: Offer): OfferForm {
  return {
    candidateId: offer.candidate.id,
    companyJobId: offer.companyJobId ?? '',
    jobFamilyId: offer.jobFamilyId,
    levelId: offer.levelId,
    track: offer.track ?? '',
    title: offer.title,
    department: offer.department ?? '',
    hiringManager: offer.hiringManager ? { id: offer.hiringManager.employeeId, name: offer.hiringManager.name } : null,
    locationId: offer.locationId,
    currency: offer.currency,
    startDate: offer.startDate,
    expiresOn: offer.expiresOn,
    benefitsSummary: offer.benefitsSummary,
    welcomeMessage: offer.welcomeMessage,
    main: packageForm('The offer', offer.package),
    alternatives: offer.alternatives.map((alternative) => packageForm(alternative.label, alternative.package, alternative.id)),
  };
}

export const blankForm = (): OfferForm => ({
  candidateId: '',
  companyJobId: '',
  jobFamilyId: '',
  levelId: '',
  track: '',
  title: '',
  department: '',
  hiringManager: null,
  locationId: '',
  currency: 'USD',
  startDate: isoDay(30),
  expiresOn: isoDay(14),
  benefitsSummary: '',
  welcomeMessage: '',
  main: emptyPackage('The offer'),
  alternatives: [],
});

export const number = (value: string): number | null => {
  const trimmed = value.replace(/[\s,]/g, '');
  if (!trimmed) return null;
  const parsed = Number(trimmed);
  return Number.isFinite(parsed) ? parsed : null;
};

/** The package as the contract takes it, or null while its base is not a number. */
export function packageInput(form: PackageForm, currency: string): OfferPackageInput | null {
  const digits = minorUnitOf(currency);
  const base = toMinor(form.base, digits);
  if (base === null || base < 1) return null;
  const shares = number(form.shares);
  const strike = number(form.strikePrice);
  return {
    base,
    bonusTargetPercent: number(form.bonusTargetPercent),
    variable: toMinor(form.variable, digits),
    signOn: toMinor(form.signOn, digits),
    equity:
      form.grantType && shares !== null && shares >= 1
        ? {
            type: form.grantType,
            shares: Math.round(shares),
            ...(form.grantType === 'option' && strike !== null ? { strikePrice: strike } : {}),
            vestingMonths: Math.round(number(form.vestingMonths) ?? 48),
            cliffMonths: Math.round(number(form.cliffMonths) ?? 12),
            vestingFrequency: form.frequency,
          }
        : null,
  };
}
