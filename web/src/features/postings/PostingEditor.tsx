import { Megaphone, Plus, RotateCcw, Trash2 } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { api, useQuery } from '../../api/client';
import { invalidate, useMutation, usePostQuery, useVersionedSave } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { Badge } from '../../ui/Badge';
import { FormProblem } from '../../ui/FormProblem';
import { PageHeader } from '../../ui/Page';
import { Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { useDebounced } from '../../ui/hooks';
import { can } from '../settings/permissions';
import { type JobPosting, stateLabel, stateTone } from './common';
import { EMPTY, EMPTY_PLACE, EMPTY_REGION, type Form, type PlaceForm, type RegionForm, formOf, inputOf } from './postingForm';
import { Findings, PlacePreview } from './PostingPreview';
import './postings.css';

type Preview = components['schemas']['JobPostingPreview'];

/** Drops every cached postings answer (the list's and the posting's), so each screen asks again. */
const forgetPostings = () => invalidate((path) => path.startsWith('/api/postings'), { drop: true });

function Editor({ posting }: { posting: JobPosting | null }) {
  const person = usePerson().data?.data;
  const mayEdit = can(person, 'postings', 'edit');
  const [, navigate] = useLocation();
  const { add } = useToasts();
  const [form, setForm] = useState<Form>(() => (posting ? formOf(posting) : EMPTY));
  useEffect(() => {
    if (posting) setForm(formOf(posting));
  }, [posting]);
  const jobs = useQuery('/api/bands/jobs');
  const catalog = useQuery('/api/benchmarking/data-composition/locations');
  const [currencies, setCurrencies] = useState<(string | undefined)[]>(() => posting?.locations.map((location) => location.currency) ?? []);
  const body = useDebounced(useMemo(() => inputOf(form, currencies), [form, currencies]), 250);
  const preview = usePostQuery('/api/postings/check', body, { keepPreviousData: true });
  const shown: Preview | undefined = preview.data?.data;
  useEffect(() => {
    if (shown) setCurrencies(shown.locations.map((location) => location.currency));
  }, [shown]);
  const create = useMutation({ failure: 'problem' });
  const versioned = useVersionedSave((ifMatch: string, patch: components['schemas']['JobPostingPatch']) => api.PATCH('/api/postings/{postingId}', { params: { path: { postingId: posting?.id ?? '' }, header: { 'If-Match': ifMatch } }, body: patch }));
  const transitions = useMutation();
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((current) => ({ ...current, [key]: value }));
  const setRegion = (index: number, changes: Partial<RegionForm>) => setForm((current) => ({ ...current, regions: current.regions.map((region, at) => (at === index ? { ...region, ...changes } : region)) }));
  const setPlace = (index: number, changes: Partial<PlaceForm>) => setForm((current) => ({ ...current, places: current.places.map((place, at) => (at === index ? { ...place, ...changes } : place)) }));

  async function save() {
    const input = inputOf(form, currencies);
    if (!input) return add('error', 'Choose the job and at least one place.');
    if (!posting) {
      const result = await create.run(() => api.POST('/api/postings', { body: input }), { hold: 'leaving' });
      if (!result.ok) return;
      // The list is not on screen: its cached answer is dropped, so it asks again when shown.
      await forgetPostings();
      navigate(`/postings/${result.data.data.id}`);
      return;
    }
    const { companyJobId: _job, ...patch } = input;
    void _job;
    const result = await versioned.save(posting.version, patch);
    if (!result.ok) return;
    await forgetPostings();
    add('success', 'Posting saved.');
  }

  async function transition(action: 'open' | 'approve' | 'close') {
    if (!posting) return;
    const result = await transitions.run(() => api.POST('/api/postings/{postingId}/transitions', { params: { path: { postingId: posting.id }, header: { 'If-Match': `"${posting.version}"` } }, body: { action } }), { invalidates: (path) => path.startsWith('/api/postings') });
    if (result.ok) await forgetPostings();
    if (result.ok) add('success', action === 'close' ? 'The posting is closed.' : `The posting is ${stateLabel(result.data.data.state).toLowerCase()}.`);
  }

  // The catalog's locations with market data, and any place the posting names beyond them.
  const locationOptions = (catalog.data?.data.locations ?? []).map(({ id, name }) => ({ id, name }));
  for (const location of posting?.locations ?? []) if (location.locationId && !locationOptions.some((option) => option.id === location.locationId)) locationOptions.push({ id: location.locationId, name: location.name });
  const readOnly = !mayEdit || posting?.state === 'closed';
  // A range beyond its band waits for the offer approval rule's approvers; one of them approves here.
  const approval = posting?.state === 'pendingApproval' ? posting.approval : null;
  const awaitsMe = Boolean(approval && person && approval.approverUserIds.includes(person.id) && !approval.approvedBy.includes(person.id));
  // A posting drawn from an older band set: its saved ranges, place by place, against today's live bands.
  const liveBandFindings = (posting?.checks.findings ?? []).filter((finding) => finding.requirement === 'liveBand');
  return (
    <div className="posting-editor">
      <PageHeader
        title={posting ? posting.title : 'New job posting'}
        icon={Megaphone}
        description="Each place’s range comes from the live band of its pay zone, rounded inwards; narrow it within the band. The checks say what the law of each place asks."
        actions={
          <Link href="/postings" className="button">
            All postings
          </Link>
        }
      />
      {posting && (
        <p>
          <Badge tone={stateTone(posting.state)}>{stateLabel(posting.state)}</Badge> Ranges from the band set {posting.bandSetName ?? '—'}
          {posting.bandSetVersion !== null && ` (version ${posting.bandSetVersion})`}.
        </p>
      )}
      {approval && (
        <div className="posting-approval">
          <p>
            A range goes beyond its band: the posting opens once {approval.requiredApprovals === 1 ? 'an approver of the offer approval rule approves it' : `${approval.requiredApprovals} approvers of the offer approval rule approve it`} ({approval.approvedBy.length} of {approval.requiredApprovals} so far).
          </p>
          {awaitsMe && (
            <button type="button" className="primary" disabled={transitions.busy} onClick={() => void transition('approve')}>
              Approve the range
            </button>
          )}
        </div>
      )}
      {posting?.stale && (
        <p className="posting-stale" role="status">
          {posting.stale.reason} Propose the ranges again to take the live bands.
        </p>
      )}
      <div className="posting-columns">
        <form
          className="posting-form"
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <FormProblem message={create.problem?.message ?? null} fields={create.problem?.fields} />
          <fieldset disabled={readOnly}>
            <legend>Job</legend>
            <label>
              Company job
              <select required value={form.companyJobId} onChange={(event) => set('companyJobId', event.target.value)} disabled={Boolean(posting)}>
                <option value="">Choose a job</option>
                {(jobs.data?.data ?? []).map((job) => (
                  <option key={job.id} value={job.id}>
                    {job.title} ({job.levelDisplay})
                  </option>
                ))}
              </select>
            </label>
            <label>
              Title in the posting
              <input value={form.title} maxLength={200} placeholder="The company job’s title" onChange={(event) => set('title', event.target.value)} />
            </label>
            <label>
              Pay
              <select value={form.payBasis} onChange={(event) => set('payBasis', event.target.value === 'hourly' ? 'hourly' : 'salary')}>
                <option value="salary">Salaried (a year)</option>
                <option value="hourly">Hourly (an hour)</option>
              </select>
            </label>
            <label>
              Round proposed ranges to
              <input inputMode="numeric" value={form.rounding} onChange={(event) => set('rounding', event.target.value)} />
            </label>
            <label>
              Benefits and other compensation
              <textarea rows={3} maxLength={4000} value={form.benefitsDescription} onChange={(event) => set('benefitsDescription', event.target.value)} />
            </label>
            <label>
              Employees (for the laws’ size thresholds; empty counts active employees)
              <input inputMode="numeric" value={form.employerHeadcount} onChange={(event) => set('employerHeadcount', event.target.value)} />
            </label>
            <label className="check">
              <input type="checkbox" checked={form.asksPayHistory} onChange={(event) => set('asksPayHistory', event.target.checked)} />
              The application asks about current or past pay
            </label>
          </fieldset>
          <fieldset disabled={readOnly}>
            <legend>Places</legend>
            {form.places.map((place, index) => (
              <div className="posting-place" key={index} data-place-index={index}>
                <label>
                  Location
                  <select aria-label={`Location ${index + 1}`} value={place.locationId} onChange={(event) => setPlace(index, { locationId: event.target.value, min: '', max: '' })}>
                    <option value="">Choose a location</option>
                    {locationOptions.map((location) => (
                      <option key={location.id} value={location.id}>
                        {location.name}
                      </option>
                    ))}
                  </select>
                </label>
                <label>
                  City
                  <input value={place.city} maxLength={100} placeholder="As the location" onChange={(event) => setPlace(index, { city: event.target.value })} />
                </label>
                <label>
                  State
                  <input value={place.stateCode} maxLength={3} placeholder="As the location" onChange={(event) => setPlace(index, { stateCode: event.target.value })} />
                </label>
                <label>
                  Minimum
                  <input aria-label={`Minimum ${index + 1}`} inputMode="decimal" value={place.min} placeholder="From the band" onChange={(event) => setPlace(index, { min: event.target.value })} />
                </label>
                <label>
                  Maximum
                  <input aria-label={`Maximum ${index + 1}`} inputMode="decimal" value={place.max} placeholder="From the band" onChange={(event) => setPlace(index, { max: event.target.value })} />
                </label>
                <div className="posting-actions">
                  <button type="button" onClick={() => setPlace(index, { min: '', max: '' })}>
                    <RotateCcw size={16} aria-hidden="true" />
                    From the band
                  </button>
                  {form.places.length > 1 && (
                    <button type="button" aria-label={`Remove place ${index + 1}`} onClick={() => setForm((current) => ({ ...current, places: current.places.filter((_, at) => at !== index) }))}>
                      <Trash2 size={16} aria-hidden="true" />
                    </button>
                  )}
                </div>
              </div>
            ))}
            <button type="button" onClick={() => setForm((current) => ({ ...current, places: [...current.places, { ...EMPTY_PLACE }] }))}>
              <Plus size={16} aria-hidden="true" />
              Add a place
            </button>
          </fieldset>
          <fieldset disabled={readOnly}>
            <legend>Remote work</legend>
            <label className="check">
              <input type="checkbox" checked={form.remote} onChange={(event) => set('remote', event.target.checked)} />
              Remote: the role may be filled from the hiring regions below
            </label>
            {form.remote && (
              <>
                <p id="posting-regions-help" className="posting-help">
                  A country (two letters, such as US or DE), or a state of it. The laws of each region that cover remote roles are checked too.
                </p>
                {form.regions.map((region, index) => (
                  <div className="posting-region" key={index} data-region-index={index}>
                    <label>
                      Country
                      <input aria-label={`Hiring region ${index + 1} country`} aria-describedby="posting-regions-help" value={region.countryCode} maxLength={2} autoCapitalize="characters" placeholder="US" onChange={(event) => setRegion(index, { countryCode: event.target.value })} />
                    </label>
                    <label>
                      State (optional)
                      <input aria-label={`Hiring region ${index + 1} state`} value={region.stateCode} maxLength={3} autoCapitalize="characters" placeholder="The whole country" onChange={(event) => setRegion(index, { stateCode: event.target.value })} />
                    </label>
                    {form.regions.length > 1 && (
                      <button type="button" aria-label={`Remove hiring region ${index + 1}`} onClick={() => setForm((current) => ({ ...current, regions: current.regions.filter((_, at) => at !== index) }))}>
                        <Trash2 size={16} aria-hidden="true" />
                      </button>
                    )}
                  </div>
                ))}
                <button type="button" onClick={() => setForm((current) => ({ ...current, regions: [...current.regions, { ...EMPTY_REGION }] }))}>
                  <Plus size={16} aria-hidden="true" />
                  Add a hiring region
                </button>
              </>
            )}
          </fieldset>
          {!readOnly && (
            <div className="posting-actions">
              <button type="submit" className="primary" disabled={create.busy || versioned.busy}>
                {posting ? 'Save posting' : 'Create posting'}
              </button>
              {posting?.state === 'draft' && (
                <button type="button" disabled={transitions.busy} onClick={() => void transition('open')}>
                  Open the posting
                </button>
              )}
              {posting && posting.state !== 'draft' && (
                <button type="button" disabled={transitions.busy} onClick={() => void transition('close')}>
                  Close the posting
                </button>
              )}
            </div>
          )}
        </form>
        <section className="posting-preview" aria-label="Ranges and checks">
          <h2>Ranges and pay text</h2>
          {!body && <p>Choose the job and a place to see the range from the bands.</p>}
          {preview.error && <p role="alert">{preview.error.message}</p>}
          {liveBandFindings.length > 0 && (
            <>
              <h2>Saved ranges against the live bands</h2>
              <Findings findings={liveBandFindings} places={posting?.locations ?? []} />
            </>
          )}
          {shown && (
            <>
              <p>{shown.bandSetName ? `From the live band set ${shown.bandSetName}.` : 'No live band set: state the ranges by hand.'}</p>
              {shown.locations.map((location) => (
                <PlacePreview key={location.key} location={location} />
              ))}
              <h2>
                Rule checks {shown.checks.meetsAll ? <Badge tone="success">Meets every rule in force</Badge> : <Badge tone="danger">Needs attention</Badge>}
              </h2>
              {shown.checks.outOfBand && <p>A range goes beyond its band: opening the posting asks the offer approval rule’s approvers.</p>}
              <Findings findings={shown.checks.findings} places={shown.locations} />
            </>
          )}
        </section>
      </div>
    </div>
  );
}

/** /postings/new */
export function NewPostingScreen() {
  return <Editor posting={null} />;
}

/** /postings/:postingId */
export function EditPostingScreen() {
  const { postingId = '' } = useParams<{ postingId: string }>();
  const posting = useQuery('/api/postings/{postingId}', { params: { path: { postingId } } });
  return (
    <Loaded data={posting.data?.data} error={posting.error} retry={() => void posting.mutate()}>
      {(data) => <Editor posting={data} />}
    </Loaded>
  );
}
