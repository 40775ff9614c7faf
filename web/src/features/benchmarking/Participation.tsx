import { type FormEvent } from 'react';
import { api, errorMessage, useQuery } from '../../api/client';
import { useMutation } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { FullSizeSpinner } from '../../ui/Spinner';
import { formatDate, formatNumber } from '../../ui/format';
import { useToasts } from '../../ui/Toasts';
import { can } from '../settings/permissions';
import { useBenchmarkingCatalog } from './data';
import { BenchmarkingFrame } from './Frame';
import type { components } from '../../../../openapi.d.ts';
import './benchmarking.css';

type Participation = components['schemas']['MarketParticipation'];

/** Only a verified participant's records enter a release: what stands in the way, in words. */
function VerificationNote({ verification }: { verification: Participation['verification'] }) {
  const domains = verification.provenDomains.join(', ');
  const text = {
    not_requested: 'Save to ask Paybench to verify your company.',
    needs_domain: 'Not verified yet: prove your company’s e-mail domain in Settings → Enterprise sign-in. Until then releases leave your employees out.',
    awaiting_approval: `Waiting for Paybench to verify your company (proven domain: ${domains}). Until then releases leave your employees out.`,
    approved: `Verified participant (${domains}).`,
    refused: `Paybench did not verify your company${verification.note ? `: ${verification.note}` : ''}. Save again to ask again.`,
  }[verification.status];
  return (
    <p data-testid="participation-verification" className={verification.status === 'approved' ? 'muted' : undefined}>
      {text}
    </p>
  );
}

const STATUS: Record<Participation['status'], string> = {
  not_participating: 'Not taking part',
  awaiting_data: 'Taking part: the next release will hold your employees',
  submitted: 'Taking part: your employees are in a release',
};

/** What the company answers about granting equity; '' leaves it unsaid. */
const EQUITY_PROGRAMME = [
  { id: '', label: 'Not said (your imported grants tell)' },
  { id: 'yes', label: 'Yes, we grant equity' },
  { id: 'no', label: 'No, we do not grant equity' },
];

/**
 * /benchmarkingsurvey/participation: whether the company adds its employees, anonymised, to the
 * market; the profile market filters select it by; and how many of its people a release built today
 * would take, with every one it would not counted by why.
 */
export function ParticipationScreen() {
  const person = usePerson().data?.data;
  const current = useQuery('/api/benchmarking/participation');
  const { filters, error: catalogError } = useBenchmarkingCatalog();
  const error = current.error ?? catalogError;
  if (error) return <p role="alert">{errorMessage(error)}</p>;
  if (!current.data || !filters) return <FullSizeSpinner loading label="Reading your participation" />;
  const editable = can(person, 'benchmarking', 'edit') && !person?.viewAs;
  const stages = filters.companyStagesWithIds.map((o) => ({ id: o.id, label: o.displayString }));
  const ownership = filters.companyOwnershipGroupsWithIds.map((o) => ({ id: o.id, label: o.displayString }));
  // A company is one sub-industry, chosen within its group.
  const industries = filters.industriesAndSubIndustriesWithIds
    .map((group) => ({ id: group.upstreamId, label: group.displayString, options: group.subIndustries.map((s) => ({ id: s.upstreamId, label: s.displayString })) }))
    .filter((group) => group.options.length > 0);
  return (
    <BenchmarkingFrame>
      <h1>Market participation</h1>
      <ParticipationForm participation={current.data.data} editable={editable} stages={stages} ownership={ownership} industries={industries} onSaved={() => void current.mutate()} />
      <HeldBack participation={current.data.data} />
      <Coverage participation={current.data.data} />
      <p className="muted small-text">
        A release takes each person’s job family, level, metro and cash pay in force on the build day, aged from the day it was set at 3.5% a year, with no name, id or
        employee number; your company is one numbered participant among the others. Every figure the market publishes passes the privacy rule and is moved off the records
        it is made of.
      </p>
    </BenchmarkingFrame>
  );
}

interface Option {
  id: string;
  label: string;
}

function ParticipationForm({
  participation,
  editable,
  stages,
  ownership,
  industries,
  onSaved,
}: {
  participation: Participation;
  editable: boolean;
  stages: Option[];
  ownership: Option[];
  industries: { id: string; label: string; options: Option[] }[];
  onSaved: () => void;
}) {
  const { add } = useToasts();
  const { run, busy } = useMutation();
  const profile = participation.profile;
  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (field: string) => String(form.get(field) ?? '');
    const equity = text('equityProgramme');
    const result = await run(() =>
      api.PUT('/api/benchmarking/participation', {
        body: {
          participates: form.get('participates') === 'on',
          companyStage: text('companyStage'),
          ownershipGroup: text('ownershipGroup'),
          industry: text('industry'),
          equityProgramme: equity === 'yes' || equity === 'no' ? equity : null,
        },
      }),
    );
    if (!result.ok) return;
    const verified = result.data.data.verification.status === 'approved';
    add(
      'success',
      form.get('participates') !== 'on'
        ? 'Saved. Releases built from now on leave your company out.'
        : verified
          ? 'Saved. The next release will hold your employees, anonymised.'
          : 'Saved. Paybench verifies your company before a release holds your employees.',
    );
    onSaved();
  }
  return (
    <section className="card" aria-labelledby="participation-heading">
      <h2 id="participation-heading">Your company in the market</h2>
      <p data-testid="participation-status">
        <strong>{STATUS[participation.status]}</strong>
        {participation.lastSubmittedAt && <span className="muted"> · last taken by a release {formatDate(participation.lastSubmittedAt)}</span>}
      </p>
      {participation.participates && <VerificationNote verification={participation.verification} />}
      <form className="settings-form" onSubmit={(event) => void save(event)}>
        <fieldset disabled={!editable || busy}>
          <label className="check">
            <input type="checkbox" name="participates" defaultChecked={participation.participates} />
            Add our employees, anonymised, to every market release built from now on
          </label>
          <ProfileSelect label="Company stage" name="companyStage" options={stages} value={profile?.companyStage} placeholder="Choose a stage" />
          <ProfileSelect label="Ownership" name="ownershipGroup" options={ownership} value={profile?.ownershipGroup} placeholder="Choose an ownership group" />
          <label>
            Industry
            <select name="industry" defaultValue={profile?.industry ?? ''} required>
              <option value="" disabled>
                Choose a sub-industry
              </option>
              {industries.map((group) => (
                <optgroup key={group.id} label={group.label}>
                  {group.options.map((o) => (
                    <option key={o.id} value={o.id}>
                      {o.label}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          </label>
          <ProfileSelect label="Equity programme" name="equityProgramme" options={EQUITY_PROGRAMME} value={profile?.equityProgramme ?? ''} />
          {editable && (
            <button type="submit" className="primary">
              Save participation
            </button>
          )}
        </fieldset>
        {!editable && <p className="muted">Changing this needs the benchmarking edit permission.</p>}
      </form>
    </section>
  );
}

/** One field of the profile; with a placeholder it must be chosen. */
function ProfileSelect({ label, name, options, value, placeholder }: { label: string; name: string; options: Option[]; value: string | undefined; placeholder?: string }) {
  return (
    <label>
      {label}
      <select name={name} defaultValue={value ?? ''} required={placeholder !== undefined}>
        {placeholder && (
          <option value="" disabled>
            {placeholder}
          </option>
        )}
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** How many active employees a release built today would take, and every other one counted by why. */
function Coverage({ participation }: { participation: Participation }) {
  const excluded = participation.excludedEmployees.reduce((sum, entry) => sum + entry.employees, 0);
  const active = participation.contributedEmployees + excluded;
  return (
    <section className="card" aria-labelledby="coverage-heading">
      <h2 id="coverage-heading">What a release built today would take</h2>
      <p data-testid="coverage">
        {formatNumber(participation.contributedEmployees)} of your {formatNumber(active)} active employees
        {excluded > 0 ? `; ${formatNumber(excluded)} cannot be placed, each counted below.` : '.'}
      </p>
      {participation.excludedEmployees.length > 0 && (
        <ul className="reasons" aria-label="Employees a release cannot place, by reason">
          {participation.excludedEmployees.map((entry) => (
            <li key={entry.reason} data-reason={entry.reason}>
              <span>{entry.description}</span>
              <span className="number">{formatNumber(entry.employees)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The last build held the company's contribution back for review: said plainly, without which check or anyone else's pay. */
function HeldBack({ participation }: { participation: Participation }) {
  const held = participation.heldBack;
  if (!held) return null;
  return (
    <section className="card" role="status" aria-labelledby="held-back-heading">
      <h2 id="held-back-heading">Held back for review</h2>
      <p data-testid="held-back">
        Your contribution to release {held.releaseVersion} was held back for review: our checks found something in your pay data that needs a second look before it is published, so that release does not include your employees.{' '}
        {held.inNextRelease ? 'It has been reviewed and goes into the next release.' : 'Our team is reviewing it and may contact you; nothing you need to do until then.'}
      </p>
    </section>
  );
}
