import { FilePlus2, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useMemo, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { api, errorMessage, useQuery } from '../../api/client';
import { invalidate, usePostQuery, useVersionedSave } from '../../api/queries';
import { FormProblem, fieldProblems } from '../../ui/FormProblem';
import { Modal } from '../../ui/Modal';
import { PageHeader } from '../../ui/Page';
import { Loaded } from '../../ui/States';
import { minorUnitOf, toMajorText } from '../../ui/format';
import { useDebounced } from '../../ui/hooks';
import { HiringManagerField } from './HiringManager';
import { useBenchmarkingCatalog } from '../benchmarking/data';
import { OfferChecksPanel } from './Checks';
import { type Offer, type OfferCheckRequest, type OfferInput, type OfferPackage, type OfferPackageInput, toMinor } from './common';
import './offers.css';

type GrantChoice = '' | 'option' | 'rsu';
type Frequency = 'monthly' | 'quarterly' | 'annually';

interface PackageForm {
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

interface OfferForm {
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

const FIELD_NAMES = { candidateId: 'Candidate', jobFamilyId: 'Job family', levelId: 'Level', locationId: 'Location', startDate: 'Start date', expiresOn: 'Expires on', package: 'Package', alternatives: 'Alternative', base: 'Base', equity: 'Equity' };

const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

const emptyPackage = (label: string): PackageForm => ({
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

const major = (amount: number | undefined | null, currency: string) => (amount === null || amount === undefined ? '' : toMajorText({ amount, currency }));

function packageForm(label: string, pkg: OfferPackage, id?: string): PackageForm {
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

function formOf(offer: Offer): OfferForm {
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

const blankForm = (): OfferForm => ({
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

const number = (value: string): number | null => {
  const trimmed = value.replace(/[\s,]/g, '');
  if (!trimmed) return null;
  const parsed = Number(trimmed);
  return Number.isFinite(parsed) ? parsed : null;
};

/** The package as the contract takes it, or null while its base is not a number. */
function packageInput(form: PackageForm, currency: string): OfferPackageInput | null {
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

function PackageFields({ form, onChange, legend, removable, onRemove }: { form: PackageForm; onChange: (next: PackageForm) => void; legend: string; removable?: boolean; onRemove?: () => void }) {
  const set = <K extends keyof PackageForm>(key: K, value: PackageForm[K]) => onChange({ ...form, [key]: value });
  return (
    <fieldset className={removable ? 'offer-alternative' : undefined}>
      <legend>{legend}</legend>
      {removable && (
        <label>
          Name of this package
          <input value={form.label} required maxLength={120} onChange={(event) => set('label', event.target.value)} />
        </label>
      )}
      <div className="offer-form-grid">
        <label>
          Base salary (a year)
          <input inputMode="decimal" required value={form.base} onChange={(event) => set('base', event.target.value)} />
        </label>
        <label>
          Bonus target (% of base)
          <input inputMode="decimal" value={form.bonusTargetPercent} onChange={(event) => set('bonusTargetPercent', event.target.value)} />
        </label>
        <label>
          Variable pay (a year)
          <input inputMode="decimal" value={form.variable} onChange={(event) => set('variable', event.target.value)} />
        </label>
        <label>
          Sign-on bonus
          <input inputMode="decimal" value={form.signOn} onChange={(event) => set('signOn', event.target.value)} />
        </label>
        <label>
          Equity
          <select value={form.grantType} onChange={(event) => set('grantType', event.target.value as GrantChoice)}>
            <option value="">None</option>
            <option value="option">Stock options</option>
            <option value="rsu">RSUs</option>
          </select>
        </label>
        {form.grantType && (
          <>
            <label>
              Shares
              <input inputMode="numeric" value={form.shares} onChange={(event) => set('shares', event.target.value)} />
            </label>
            {form.grantType === 'option' && (
              <label>
                Strike price per share
                <input inputMode="decimal" value={form.strikePrice} placeholder="Latest fair market value" onChange={(event) => set('strikePrice', event.target.value)} />
              </label>
            )}
            <label>
              Vesting (months)
              <input inputMode="numeric" value={form.vestingMonths} onChange={(event) => set('vestingMonths', event.target.value)} />
            </label>
            <label>
              Cliff (months)
              <input inputMode="numeric" value={form.cliffMonths} onChange={(event) => set('cliffMonths', event.target.value)} />
            </label>
            <label>
              Vests
              <select value={form.frequency} onChange={(event) => set('frequency', event.target.value as Frequency)}>
                <option value="monthly">Monthly</option>
                <option value="quarterly">Quarterly</option>
                <option value="annually">Annually</option>
              </select>
            </label>
          </>
        )}
      </div>
      {removable && onRemove && (
        <button type="button" className="ghost small" onClick={onRemove}>
          <Trash2 size={16} aria-hidden="true" /> Remove {form.label || 'this package'}
        </button>
      )}
    </fieldset>
  );
}

/** A new candidate, added from the builder. */
function AddCandidate({ onClose, onAdded }: { onClose: () => void; onAdded: (id: string) => void }) {
  const [problem, setProblem] = useState<{ message: string; fields: string[] } | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    const { data, error } = await api.POST('/api/candidates', {
      body: { email: String(form.get('email') ?? ''), firstName: String(form.get('firstName') ?? ''), lastName: String(form.get('lastName') ?? ''), title: String(form.get('title') ?? '') },
    });
    setBusy(false);
    if (error || !data) return setProblem({ message: errorMessage(error), fields: fieldProblems(error) });
    await invalidate('/api/candidates');
    onAdded(data.data.id);
  }
  return (
    <Modal title="Add a candidate" onClose={onClose}>
      <form className="settings-form" onSubmit={(event) => void submit(event)}>
        <label>
          First name
          <input name="firstName" required maxLength={200} autoComplete="off" />
        </label>
        <label>
          Last name
          <input name="lastName" required maxLength={200} autoComplete="off" />
        </label>
        <label>
          E-mail
          <input name="email" type="email" required maxLength={320} autoComplete="off" />
        </label>
        <label>
          Role considered for
          <input name="title" maxLength={200} autoComplete="off" />
        </label>
        <FormProblem message={problem?.message ?? null} fields={problem?.fields} />
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            Add the candidate
          </button>
          <button type="button" className="ghost" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** The builder: the package on the left, its checks (band, market, internal equity, approval) beside it, live. */
function BuilderForm({ offer }: { offer: Offer | null }) {
  const [, navigate] = useLocation();
  const [form, setForm] = useState<OfferForm>(() => (offer ? formOf(offer) : blankForm()));
  const [adding, setAdding] = useState(false);
  const [problem, setProblem] = useState<{ message: string; fields: string[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const candidates = useQuery('/api/candidates', { params: { query: { limit: 500 } } });
  const jobs = useQuery('/api/bands/jobs');
  const currencies = useQuery('/api/currencies');
  const locations = useQuery('/api/benchmarking/data-composition/locations');
  const { filters, catalog, name } = useBenchmarkingCatalog();
  const set = <K extends keyof OfferForm>(key: K, value: OfferForm[K]) => setForm((current) => ({ ...current, [key]: value }));
  const { save, busy: saving } = useVersionedSave((ifMatch: string, body: Partial<OfferInput>) =>
    api.PATCH('/api/offers/{offerId}', { params: { path: { offerId: offer?.id ?? '' }, header: { 'If-Match': ifMatch } }, body }),
  );

  const mainPackage = packageInput(form.main, form.currency);
  const alternatives = form.alternatives.flatMap((alternative) => {
    const pkg = packageInput(alternative, form.currency);
    return pkg ? [{ ...(alternative.id ? { id: alternative.id } : {}), label: alternative.label || 'Alternative', package: pkg }] : [];
  });
  const checkRequest: OfferCheckRequest | null =
    mainPackage && form.jobFamilyId && form.levelId && form.locationId
      ? {
          ...(form.companyJobId ? { companyJobId: form.companyJobId } : {}),
          jobFamilyId: form.jobFamilyId,
          levelId: form.levelId,
          department: form.department || null,
          locationId: form.locationId,
          currency: form.currency,
          package: mainPackage,
          alternatives,
        }
      : null;
  // The checks follow the form once typing pauses; the request is compared by its content.
  const requestText = useDebounced(checkRequest ? JSON.stringify(checkRequest) : null, 400);
  const debounced = useMemo(() => (requestText ? (JSON.parse(requestText) as OfferCheckRequest) : null), [requestText]);
  const checks = usePostQuery('/api/offers/check', debounced, { keepPreviousData: true });

  function chooseJob(id: string) {
    const job = jobs.data?.data.find((entry) => entry.id === id);
    setForm((current) => ({
      ...current,
      companyJobId: id,
      ...(job ? { jobFamilyId: job.jobFamilyId, levelId: job.levelId, track: job.trackId, title: current.title || job.title } : {}),
    }));
  }

  function chooseCandidate(id: string) {
    const candidate = candidates.data?.data.find((entry) => entry.id === id);
    setForm((current) => ({
      ...current,
      candidateId: id,
      ...(candidate && !offer
        ? {
            currency: candidate.currency,
            title: current.title || candidate.title,
            jobFamilyId: current.jobFamilyId || (candidate.jobFamilyId ?? ''),
            levelId: current.levelId || (candidate.levelId ?? ''),
            locationId: current.locationId || (candidate.locationId ?? ''),
          }
        : {}),
    }));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!mainPackage) return setProblem({ message: 'Enter the base salary of the offer.', fields: [] });
    const body = {
      ...(form.companyJobId ? { companyJobId: form.companyJobId } : { companyJobId: null }),
      jobFamilyId: form.jobFamilyId,
      levelId: form.levelId,
      track: form.track || null,
      title: form.title,
      department: form.department || null,
      hiringManagerId: form.hiringManager?.id ?? null,
      locationId: form.locationId,
      startDate: form.startDate,
      expiresOn: form.expiresOn,
      currency: form.currency,
      package: mainPackage,
      alternatives,
      benefitsSummary: form.benefitsSummary,
      welcomeMessage: form.welcomeMessage,
    };
    setProblem(null);
    if (offer) {
      const result = await save(offer.version, body);
      if (!result.ok) return setProblem({ message: result.message, fields: [] });
      await invalidate(['/api/offers', '/api/offers/{offerId}']);
      return navigate(`/offers/${offer.id}`);
    }
    setBusy(true);
    const { data, error } = await api.POST('/api/offers', { body: { ...body, candidateId: form.candidateId } });
    setBusy(false);
    if (error || !data) return setProblem({ message: errorMessage(error), fields: fieldProblems(error, FIELD_NAMES) });
    await invalidate('/api/offers');
    navigate(`/offers/${data.data.id}`);
  }

  const families = catalog ?? [];
  const levels = filters?.levelsWithIds.levelTracks.flatMap((track) => track.levels) ?? [];
  const locationIds = (locations.data?.data.locations ?? []).map((location) => location.id);
  if (form.locationId && !locationIds.includes(form.locationId)) locationIds.unshift(form.locationId);

  return (
    <div className="offer-builder">
      <form className="settings-form" onSubmit={(event) => void submit(event)} aria-label={offer ? 'Edit the offer' : 'Build an offer'}>
        <fieldset>
          <legend>Candidate and job</legend>
          <div className="offer-form-grid">
            <label>
              Candidate
              <select required value={form.candidateId} disabled={Boolean(offer)} onChange={(event) => chooseCandidate(event.target.value)}>
                <option value="">Choose a candidate</option>
                {(candidates.data?.data ?? []).map((candidate) => (
                  <option key={candidate.id} value={candidate.id}>
                    {candidate.firstName} {candidate.lastName} ({candidate.email})
                  </option>
                ))}
              </select>
            </label>
            {!offer && (
              <button type="button" className="small" onClick={() => setAdding(true)}>
                <Plus size={16} aria-hidden="true" /> Add a candidate
              </button>
            )}
            <label>
              Company job
              <select value={form.companyJobId} onChange={(event) => chooseJob(event.target.value)}>
                <option value="">None (choose family and level)</option>
                {(jobs.data?.data ?? []).map((job) => (
                  <option key={job.id} value={job.id}>
                    {job.title} — {job.jobFamilyName}, {job.levelDisplay}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Job family
              <select required value={form.jobFamilyId} onChange={(event) => setForm((current) => ({ ...current, jobFamilyId: event.target.value, companyJobId: '' }))}>
                <option value="">Choose a family</option>
                {families.map((family) => (
                  <option key={family.upstreamId} value={family.upstreamId}>
                    {family.displayString}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Level
              <select required value={form.levelId} onChange={(event) => setForm((current) => ({ ...current, levelId: event.target.value, companyJobId: '' }))}>
                <option value="">Choose a level</option>
                {levels.map((level) => (
                  <option key={level.id} value={level.id}>
                    {level.displayString}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Job title on the letter
              <input value={form.title} maxLength={200} onChange={(event) => set('title', event.target.value)} />
            </label>
            <label>
              Department
              <input value={form.department} maxLength={200} onChange={(event) => set('department', event.target.value)} />
            </label>
            <HiringManagerField manager={form.hiringManager} onChange={(manager) => set('hiringManager', manager)} />
            <label>
              Location
              <select required value={form.locationId} onChange={(event) => set('locationId', event.target.value)}>
                <option value="">Choose a location</option>
                {locationIds.map((id) => (
                  <option key={id} value={id}>
                    {name(id)}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Currency
              <select value={form.currency} onChange={(event) => set('currency', event.target.value)}>
                {(currencies.data?.data ?? [{ code: form.currency, name: form.currency }]).map((currency) => (
                  <option key={currency.code} value={currency.code}>
                    {currency.code}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Start date
              <input type="date" required value={form.startDate} onChange={(event) => set('startDate', event.target.value)} />
            </label>
            <label>
              Offer expires on
              <input type="date" required value={form.expiresOn} onChange={(event) => set('expiresOn', event.target.value)} />
            </label>
          </div>
          {checks.data?.data.band.payZoneName && <p className="muted small-text">Pay zone: {checks.data.data.band.payZoneName}</p>}
        </fieldset>
        <PackageFields legend="Package" form={form.main} onChange={(main) => set('main', main)} />
        {form.alternatives.map((alternative, index) => (
          <PackageFields
            key={alternative.id ?? `new-${index}`}
            legend={`Alternative ${index + 1}`}
            form={alternative}
            removable
            onChange={(next) => set('alternatives', form.alternatives.map((entry, position) => (position === index ? next : entry)))}
            onRemove={() => set('alternatives', form.alternatives.filter((_, position) => position !== index))}
          />
        ))}
        {form.alternatives.length < 3 && (
          <button type="button" onClick={() => set('alternatives', [...form.alternatives, { ...form.main, id: undefined, label: `Alternative ${form.alternatives.length + 1}` }])}>
            <Plus size={16} aria-hidden="true" /> Add an alternative package
          </button>
        )}
        <fieldset>
          <legend>The letter</legend>
          <label>
            Welcome message
            <textarea rows={3} maxLength={4000} value={form.welcomeMessage} onChange={(event) => set('welcomeMessage', event.target.value)} />
          </label>
          <label>
            Benefits summary
            <textarea rows={3} maxLength={4000} value={form.benefitsSummary} onChange={(event) => set('benefitsSummary', event.target.value)} />
          </label>
        </fieldset>
        <FormProblem message={problem?.message ?? null} fields={problem?.fields} />
        <div className="actions">
          <button type="submit" className="primary" disabled={busy || saving}>
            {offer ? 'Save the offer' : 'Save as draft'}
          </button>
          <Link href={offer ? `/offers/${offer.id}` : '/offers'}>Cancel</Link>
        </div>
        {offer && offer.state !== 'draft' && <p className="muted small-text">Saving returns the offer to draft: approvals start again and the candidate’s link stops working until it is sent again.</p>}
      </form>
      <OfferChecksPanel checks={checks.data?.data} error={checks.error} loading={checks.isValidating} />
      {adding && (
        <AddCandidate
          onClose={() => setAdding(false)}
          onAdded={(id) => {
            setAdding(false);
            setForm((current) => ({ ...current, candidateId: id }));
          }}
        />
      )}
    </div>
  );
}

/** /offers/new: a new offer, built against its checks. */
export function NewOfferScreen() {
  return (
    <div className="offers">
      <PageHeader title="New offer" icon={FilePlus2} eyebrow={<Link href="/offers">Offers</Link>} description="Build the package; the checks beside it follow as you type." />
      <BuilderForm offer={null} />
    </div>
  );
}

/** /offers/:offerId/edit: the builder on an offer that exists. */
export function EditOfferScreen() {
  const { offerId = '' } = useParams<{ offerId: string }>();
  const offer = useQuery('/api/offers/{offerId}', { params: { path: { offerId } } });
  return (
    <div className="offers">
      <PageHeader title="Edit the offer" icon={FilePlus2} eyebrow={<Link href={`/offers/${offerId}`}>The offer</Link>} />
      <Loaded data={offer.data?.data} error={offer.error}>
        {(data) => <BuilderForm offer={data} />}
      </Loaded>
    </div>
  );
}
