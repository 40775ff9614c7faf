import { Briefcase, Plus, UsersRound } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { api, useQuery } from '../../api/client';
import { useMutation, useVersionedSave } from '../../api/queries';
import { DataTable } from '../../ui/DataTable';
import { ConfirmDelete } from '../../ui/ConfirmDelete';
import { Modal } from '../../ui/Modal';
import { Section } from '../../ui/Page';
import { SkeletonStats, SkeletonTable } from '../../ui/Skeleton';
import { StatCard, StatGrid } from '../../ui/StatCard';
import { Empty, Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { BandsFrame, type CompanyJob, Problem, type Schemas, formatNumber, refreshBands, useBandsAccess, useMarketNames, useBandsMutation } from './common';
import { GradesManager } from './GradesManager';

const REASONS: Record<Schemas['UnmappedEmployee']['reason'], string> = {
  no_family_or_level: 'No job family or level',
  no_title: 'No job title',
  no_job_code: 'No job code',
  no_company_job: 'No company job takes it',
};

type JobMatching = Schemas['BandJobMatching'];

const MATCHINGS: { value: JobMatching; label: string; hint: string }[] = [
  { value: 'familyLevel', label: 'Job family and level', hint: 'Each employee’s family and level from your people data.' },
  { value: 'titleLevel', label: 'Job title and level', hint: 'Their job title (any case or spacing) and level equal a company job’s title and level.' },
  { value: 'title', label: 'Job title', hint: 'Their job title alone equals a company job’s title.' },
  { value: 'jobCode', label: 'Job code', hint: 'The job code from your people import equals a company job’s code.' },
];

/** How employees map to company jobs: the company's rule, saved at the version read. */
function JobMatchingSetting({ editable }: { editable: boolean }) {
  const settings = useQuery('/api/bands/settings');
  const { add } = useToasts();
  const [chosen, setChosen] = useState<JobMatching | null>(null);
  const { save, busy } = useVersionedSave((ifMatch, body: Schemas['BandSettingsInput']) => api.PUT('/api/bands/settings', { params: { header: { 'If-Match': ifMatch } }, body }));
  const current = settings.data?.data;
  const value = chosen ?? current?.jobMatching ?? 'familyLevel';
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!current) return;
    const result = await save(current.version, { jobMatching: value });
    if (!result.ok) return;
    setChosen(null);
    add('success', `Employees now map to company jobs by ${MATCHINGS.find((entry) => entry.value === value)?.label.toLowerCase()}.`);
    await settings.mutate();
    await refreshBands();
  }
  return (
    <Section title="How employees map to jobs" id="job-matching-heading">
      <form className="bands-fields" aria-label="How employees map to jobs" onSubmit={(event) => void submit(event)}>
        <label>
          Match employees by
          <select value={value} disabled={!editable || !current} onChange={(event) => setChosen(MATCHINGS.find((entry) => entry.value === event.target.value)?.value ?? null)}>
            {MATCHINGS.map((entry) => (
              <option key={entry.value} value={entry.value}>
                {entry.label}
              </option>
            ))}
          </select>
        </label>
        {editable && (
          <button type="submit" disabled={busy || !current || value === current.jobMatching}>
            Save matching
          </button>
        )}
      </form>
      <p className="bands-muted">{MATCHINGS.find((entry) => entry.value === value)?.hint} A title or code two company jobs share maps no one.</p>
    </Section>
  );
}

/** A job's title, code and comp grade, saved at the version read. */
function EditJob({ job, onClose }: { job: CompanyJob; onClose: () => void }) {
  const { add } = useToasts();
  const [title, setTitle] = useState(job.title);
  const [jobCode, setJobCode] = useState(job.jobCode ?? '');
  const [gradeId, setGradeId] = useState(job.gradeId ?? '');
  const grades = useQuery('/api/bands/grades');
  const [problem, setProblem] = useState<string | null>(null);
  const { save, busy } = useVersionedSave((ifMatch, body: Schemas['CompanyJobPatch']) =>
    api.PATCH('/api/bands/jobs/{companyJobId}', { params: { path: { companyJobId: job.id }, header: { 'If-Match': ifMatch } }, body }),
  );
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = await save(job.version, { title, jobCode: jobCode.trim() || null, gradeId: gradeId || null });
    if (!result.ok) return setProblem(result.message);
    add('success', `Saved “${result.data.data.title}”.`);
    await refreshBands();
    onClose();
  }
  return (
    <Modal title={`Edit ${job.title}`} onClose={onClose}>
      <form className="settings-form" onSubmit={(event) => void submit(event)}>
        <p className="bands-muted">
          {job.jobFamilyName} · {job.levelDisplay}: the family and level stay, as employees map to the job by them.
        </p>
        <label>
          Job title
          <input value={title} onChange={(event) => setTitle(event.target.value)} required maxLength={200} autoComplete="off" />
        </label>
        <label>
          Job code (optional, unique)
          <input value={jobCode} onChange={(event) => setJobCode(event.target.value)} maxLength={64} autoComplete="off" />
        </label>
        <label>
          Comp grade
          <select value={gradeId} onChange={(event) => setGradeId(event.target.value)}>
            <option value="">No grade</option>
            {(grades.data?.data ?? []).map((grade) => (
              <option key={grade.id} value={grade.id}>
                {grade.key}
                {grade.name !== grade.key ? ` · ${grade.name}` : ''}
              </option>
            ))}
          </select>
        </label>
        <Problem message={problem} />
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            Save job
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** One more job: a market family × level (its track comes with the level), and a title and code if wanted. */
function AddJob({ onClose }: { onClose: () => void }) {
  const { add } = useToasts();
  const names = useMarketNames();
  const { run, busy, problem } = useBandsMutation();
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const title = String(form.get('title') ?? '').trim();
    const jobCode = String(form.get('jobCode') ?? '').trim();
    const answer = await run(() =>
      api.POST('/api/bands/jobs', {
        body: { jobFamilyId: String(form.get('jobFamilyId') ?? ''), levelId: String(form.get('levelId') ?? ''), ...(title ? { title } : {}), ...(jobCode ? { jobCode } : {}) },
      }),
    );
    if (!answer.ok) return;
    const data = answer.data;
    add('success', `Added “${data.data.title}”.`);
    await refreshBands();
    onClose();
  }
  const families = [...names.families].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <Modal title="Add a company job" onClose={onClose}>
      <form className="settings-form" onSubmit={(event) => void submit(event)}>
        <label>
          Job family
          <select name="jobFamilyId" required defaultValue="">
            <option value="" disabled>
              Choose a family
            </option>
            {families.map((family) => (
              <option key={family.id} value={family.id}>
                {family.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Level
          <select name="levelId" required defaultValue="">
            <option value="" disabled>
              Choose a level
            </option>
            {names.tracks.map((track) => (
              <optgroup key={track.id} label={track.displayString}>
                {track.levels
                  .filter((level) => level.levelType === 'level')
                  .map((level) => (
                    <option key={level.id} value={level.id}>
                      {level.extendedDisplayString}
                    </option>
                  ))}
              </optgroup>
            ))}
          </select>
        </label>
        <label>
          Job title (optional)
          <input name="title" maxLength={200} placeholder="Defaults to the family and level" autoComplete="off" />
        </label>
        <label>
          Job code (optional)
          <input name="jobCode" maxLength={64} autoComplete="off" />
        </label>
        <Problem message={problem?.message ?? null} fields={problem?.fields} />
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            Add job
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** Deleting a job: refused while a band set has a band for it, in the server's words. */
function DeleteJob({ job, onClose }: { job: CompanyJob; onClose: () => void }) {
  const { add } = useToasts();
  return (
    <ConfirmDelete
      title={`Delete “${job.title}”?`}
      confirmLabel="Delete job"
      problemClassName="bands-problem"
      onClose={onClose}
      call={() => api.DELETE('/api/bands/jobs/{companyJobId}', { params: { path: { companyJobId: job.id } } })}
      onDeleted={async () => {
        await refreshBands();
        add('success', `Deleted “${job.title}”.`);
        onClose();
      }}
    >
      <p>Its {formatNumber(job.employeeCount)} employees would map to no company job until one is made again.</p>
    </ConfirmDelete>
  );
}

/** The active employees no company job takes, and why. */
function UnmappedEmployees() {
  const unmapped = useQuery('/api/bands/jobs/unmapped-employees');
  const names = useMarketNames();
  return (
    <Section title="Employees without a company job" id="unmapped-heading">
      <Loaded data={unmapped.data?.data} error={unmapped.error} inline retry={() => void unmapped.mutate()} skeleton={<SkeletonTable rows={3} columns={4} label="Loading the employees without a job" />}>
        {(list) =>
          list.length === 0 ? (
            <Empty title="Everyone maps to a company job" compact headingLevel={3} icon={UsersRound}>
              Every active employee you can see maps to a company job.
            </Empty>
          ) : (
            <>
              <p className="bands-muted">
                {formatNumber(list.length)} active employees you can see are in no band of any set. Give them what the matching above needs in your people data, or create the jobs they need.
              </p>
              <DataTable
                caption="Employees without a company job, by name"
                captionHidden
                cardsOnPhone
                rows={list}
                rowKey={(employee) => employee.employeeId}
                rowAttributes={(employee) => ({ 'data-employee-id': employee.employeeId })}
                columns={[
                  { key: 'name', header: 'Employee', rowHeader: true, cell: (employee) => employee.name },
                  { key: 'title', header: 'Title', cell: (employee) => employee.title || '—' },
                  { key: 'family', header: 'Family', cell: (employee) => (employee.jobFamilyId ? names.name(employee.jobFamilyId) : '—') },
                  { key: 'level', header: 'Level', cell: (employee) => (employee.levelId ? names.name(employee.levelId) : '—') },
                  { key: 'reason', header: 'Why', cell: (employee) => REASONS[employee.reason] },
                ]}
              />
            </>
          )
        }
      </Loaded>
    </Section>
  );
}

/** /bands/jobs: job architecture — the company's jobs (family × level × track) and who maps to them. */
export function CompanyJobsScreen() {
  const access = useBandsAccess();
  const jobs = useQuery('/api/bands/jobs');
  const { run, busy } = useMutation();
  const [made, setMade] = useState<Schemas['CreatedCompanyJobs'] | null>(null);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<CompanyJob | null>(null);
  const [deleting, setDeleting] = useState<CompanyJob | null>(null);

  async function fromEmployees() {
    const answer = await run(() => api.POST('/api/bands/jobs/from-employees'));
    if (!answer.ok) return;
    setMade(answer.data.data);
    await refreshBands();
  }

  const createFromEmployees = access.edit ? (
    <button type="button" className="primary" onClick={() => void fromEmployees()} disabled={busy}>
      <UsersRound size={18} aria-hidden="true" /> Create jobs from employees
    </button>
  ) : undefined;

  return (
    <BandsFrame
      title="Job architecture"
      icon={Briefcase}
      description="A company job is one market job family at one level; employees map to it as the company chooses below (family and level by default), and every band set prices it in every pay zone."
      actions={
        access.edit && jobs.data?.data.length ? (
          <>
            {createFromEmployees}
            <button type="button" onClick={() => setAdding(true)}>
              <Plus size={18} aria-hidden="true" /> Add a job
            </button>
          </>
        ) : undefined
      }
    >
      {made && (
        <p role="status" className="bands-outcome" data-testid="jobs-created">
          Created {formatNumber(made.created.length)} {made.created.length === 1 ? 'job' : 'jobs'} from your employees; {formatNumber(made.existing)} family and level{' '}
          {made.existing === 1 ? 'pair' : 'pairs'} already had one.
        </p>
      )}
      <Loaded
        data={jobs.data?.data}
        error={jobs.error}
        retry={() => void jobs.mutate()}
        skeleton={
          <>
            <SkeletonStats count={2} label="Loading the company jobs" />
            <SkeletonTable rows={6} columns={6} />
          </>
        }
      >
        {(list) =>
          list.length === 0 ? (
            <Empty
              title="No company jobs yet"
              icon={Briefcase}
              action={
                access.edit ? (
                  <>
                    {createFromEmployees}
                    <button type="button" onClick={() => setAdding(true)}>
                      Add one job
                    </button>
                  </>
                ) : undefined
              }
            >
              Create one job for each family and level your active employees have, then build band sets for them.
            </Empty>
          ) : (
            <>
              <StatGrid label="Job architecture">
                <StatCard label="Company jobs" value={formatNumber(list.length)} />
                <StatCard label="Employees mapped" value={formatNumber(list.reduce((sum, job) => sum + job.employeeCount, 0))} hint="Active employees, the whole company" />
              </StatGrid>
              <DataTable
                caption="Company jobs by family, track and level"
                captionHidden
                cardsOnPhone
                rows={list}
                rowKey={(job) => job.id}
                rowAttributes={(job) => ({ 'data-company-job-id': job.id })}
                columns={[
                  { key: 'title', header: 'Job', rowHeader: true, cell: (job) => job.title },
                  { key: 'code', header: 'Job code', cell: (job) => job.jobCode ?? '—' },
                  { key: 'family', header: 'Family', cell: (job) => job.jobFamilyName },
                  { key: 'level', header: 'Level', cell: (job) => job.levelDisplay },
                  { key: 'employees', header: 'Employees', numeric: true, cell: (job) => formatNumber(job.employeeCount) },
                  { key: 'grade', header: 'Grade', cell: (job) => job.gradeKey ?? '—' },
                  ...(access.edit
                    ? [
                        {
                          key: 'actions',
                          header: <span className="visually-hidden">Actions</span>,
                          label: 'Actions',
                          cell: (job: CompanyJob) => (
                            <span className="bands-row-actions">
                              <button type="button" className="small" onClick={() => setEditing(job)} aria-label={`Edit ${job.title}`}>
                                Edit
                              </button>
                              <button type="button" className="small ghost" onClick={() => setDeleting(job)} aria-label={`Delete ${job.title}`}>
                                Delete
                              </button>
                            </span>
                          ),
                        },
                      ]
                    : []),
                ]}
              />
            </>
          )
        }
      </Loaded>
      <GradesManager editable={access.edit} />
      <JobMatchingSetting editable={access.edit} />
      <UnmappedEmployees />
      {adding && <AddJob onClose={() => setAdding(false)} />}
      {editing && <EditJob job={editing} onClose={() => setEditing(null)} />}
      {deleting && <DeleteJob job={deleting} onClose={() => setDeleting(null)} />}
    </BandsFrame>
  );
}
