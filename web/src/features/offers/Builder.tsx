import { FilePlus2, Plus } from 'lucide-react';
import { type FormEvent, useMemo, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { api, useQuery } from '../../api/client';
import { invalidate, useMutation, usePostQuery, useVersionedSave } from '../../api/queries';
import { FormProblem } from '../../ui/FormProblem';
import { PageHeader } from '../../ui/Page';
import { Loaded } from '../../ui/States';
import { useDebounced } from '../../ui/hooks';
import { HiringManagerField } from './HiringManager';
import { useBenchmarkingCatalog } from '../benchmarking/data';
import { OfferChecksPanel } from './Checks';
import { type Offer, type OfferCheckRequest, type OfferInput } from './common';
import './offers.css';
import { type OfferForm, FIELD_NAMES, formOf, blankForm, packageInput } from './builderForm';
import { PackageFields, AddCandidate } from './BuilderParts';

/** The builder: the package on the left, its checks (band, market, internal equity, approval) beside it, live. */
function BuilderForm({ offer }: { offer: Offer | null }) {
  const [, navigate] = useLocation();
  const [form, setForm] = useState<OfferForm>(() => (offer ? formOf(offer) : blankForm()));
  const [adding, setAdding] = useState(false);
  const { run, busy, problem, setProblem } = useMutation({ failure: 'problem', fieldNames: FIELD_NAMES });
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
    const answer = await run(() => api.POST('/api/offers', { body: { ...body, candidateId: form.candidateId } }));
    if (!answer.ok) return;
    await invalidate('/api/offers');
    navigate(`/offers/${answer.data.data.id}`);
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
