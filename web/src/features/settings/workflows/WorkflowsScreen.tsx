import { ArrowUp, Download, GitBranch, Plus, Trash2, Upload } from 'lucide-react';
import { type ChangeEvent, useState } from 'react';
import { useLocation } from 'wouter';
import type { components } from '../../../../../openapi.d.ts';
import { api, useQuery } from '../../../api/client';
import { invalidate, useMutation, useVersionedSave } from '../../../api/queries';
import { usePerson } from '../../../app/Guard';
import { FormProblem } from '../../../ui/FormProblem';
import { PageHeader, Section } from '../../../ui/Page';
import { Loaded } from '../../../ui/States';
import { useToasts } from '../../../ui/Toasts';
import { RulesEditor } from '../../offers/Approvals';
import { can } from '../permissions';
import '../settings.css';
import './workflows.css';

type Settings = components['schemas']['WorkflowSettings'];
type SettingsInput = components['schemas']['WorkflowSettingsInput'];
type ChainImport = components['schemas']['ApprovalChainImport'];
type User = components['schemas']['User'];

const nameOf = (user: Pick<User, 'firstName' | 'lastName' | 'email'>): string => [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;

/** An ordered list of approvers: add one at the end, move one up, remove one. */
function OrderedApprovers({ label, value, onChange, people, editable }: { label: string; value: string[]; onChange: (next: string[]) => void; people: User[]; editable: boolean }) {
  const [adding, setAdding] = useState('');
  const byId = new Map(people.map((user) => [user.id, user]));
  const choices = people.filter((user) => !value.includes(user.id));
  return (
    <div className="workflow-approvers">
      {value.length === 0 ? (
        <p className="muted">Nobody yet.</p>
      ) : (
        <ol aria-label={label}>
          {value.map((userId, index) => {
            const user = byId.get(userId);
            const name = user ? nameOf(user) : 'A removed user';
            return (
              <li key={userId}>
                <span>
                  {name}
                  {user && <span className="muted"> ({user.email})</span>}
                </span>
                {editable && (
                  <span className="workflow-approver-actions">
                    {index > 0 && (
                      <button type="button" className="ghost small" aria-label={`Move ${name} up`} onClick={() => onChange([...value.slice(0, index - 1), userId, value[index - 1] ?? '', ...value.slice(index + 1)])}>
                        <ArrowUp size={16} aria-hidden="true" />
                      </button>
                    )}
                    <button type="button" className="ghost small" aria-label={`Remove ${name}`} onClick={() => onChange(value.filter((id) => id !== userId))}>
                      <Trash2 size={16} aria-hidden="true" />
                    </button>
                  </span>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {editable && value.length < 10 && (
        <div className="workflow-add">
          <label>
            Add an approver to {label.toLowerCase()}
            <select value={adding} onChange={(event) => setAdding(event.target.value)}>
              <option value="">Choose a person…</option>
              {choices.map((user) => (
                <option key={user.id} value={user.id}>
                  {nameOf(user)} ({user.email})
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            disabled={!adding}
            onClick={() => {
              onChange([...value, adding]);
              setAdding('');
            }}
          >
            <Plus size={16} aria-hidden="true" /> Add
          </button>
        </div>
      )}
    </div>
  );
}

function useSaveSettings() {
  return useVersionedSave((ifMatch: string, body: SettingsInput) => api.PUT('/api/workflow-settings', { params: { header: { 'If-Match': ifMatch } }, body }));
}

/** Who approves a band set before it goes live. */
function BandPublication({ settings, people, editable }: { settings: Settings; people: User[]; editable: boolean }) {
  const { add } = useToasts();
  const [approvers, setApprovers] = useState(() => settings.bandPublicationApprovers.map((approver) => approver.userId));
  const [problem, setProblem] = useState<string | null>(null);
  const { save, busy } = useSaveSettings();
  async function submit() {
    const result = await save(settings.version, { bandPublicationApproverUserIds: approvers });
    if (!result.ok) return setProblem(result.message);
    setProblem(null);
    await invalidate('/api/workflow-settings');
    add('success', approvers.length ? 'Band sets now need approval before they go live.' : 'Band sets now go live when published.');
  }
  return (
    <Section title="Band set publication" id="workflow-bands-heading">
      <p className="muted">{approvers.length ? 'Publishing a band set submits it to these approvers, in order; the last approval makes it live.' : 'No approvers: publishing a band set makes it live at once.'}</p>
      <OrderedApprovers label="Band set approvers" value={approvers} onChange={setApprovers} people={people} editable={editable} />
      <FormProblem message={problem} />
      {editable && (
        <button type="button" className="primary" disabled={busy} onClick={() => void submit()}>
          Save band set approvers
        </button>
      )}
    </Section>
  );
}

interface ChainDraft {
  branchEmployeeId: string | null;
  branchName: string | null;
  reviewerUserIds: string[];
}

/** The merit-cycle chains a new cycle starts with: edited here, or replaced from a CSV file. */
function MeritChains({ settings, people, editable }: { settings: Settings; people: User[]; editable: boolean }) {
  const { add } = useToasts();
  const [chains, setChains] = useState<ChainDraft[]>(() =>
    settings.meritChains.map((chain) => ({ branchEmployeeId: chain.branchEmployeeId, branchName: chain.branchName ?? chain.branchEmail, reviewerUserIds: chain.reviewers.map((reviewer) => reviewer.userId) })),
  );
  const [problem, setProblem] = useState<string | null>(null);
  const { save, busy } = useSaveSettings();
  async function submit() {
    const kept = chains.filter((chain) => chain.reviewerUserIds.length > 0);
    const result = await save(settings.version, { meritChains: kept.map((chain) => ({ branchEmployeeId: chain.branchEmployeeId, reviewerUserIds: chain.reviewerUserIds })) });
    if (!result.ok) return setProblem(result.message);
    setProblem(null);
    await invalidate('/api/workflow-settings');
    add('success', 'The default approval chains were saved.');
  }
  const update = (index: number, reviewerUserIds: string[]) => setChains((current) => current.map((chain, at) => (at === index ? { ...chain, reviewerUserIds } : chain)));
  return (
    <Section title="Merit-cycle approval chains" id="workflow-merit-heading">
      <p className="muted">Every new merit cycle starts with these chains: a submitted worksheet goes to the reviewers of the nearest branch at or above its planner, in order, else to the whole company’s chain. A cycle’s own chains are changed in the cycle.</p>
      {chains.length === 0 && <p className="muted">No default chains yet.</p>}
      {chains.map((chain, index) => (
        <fieldset key={chain.branchEmployeeId ?? 'company'} className="workflow-chain">
          <legend>{chain.branchEmployeeId ? `Branch of ${chain.branchName ?? 'an employee'}` : 'Whole company'}</legend>
          <OrderedApprovers label={chain.branchEmployeeId ? `Reviewers for the branch of ${chain.branchName ?? 'an employee'}` : 'Reviewers for the whole company'} value={chain.reviewerUserIds} onChange={(next) => update(index, next)} people={people} editable={editable} />
          {editable && (
            <button type="button" className="ghost small" onClick={() => setChains((current) => current.filter((_, at) => at !== index))}>
              <Trash2 size={16} aria-hidden="true" /> Remove this chain
            </button>
          )}
        </fieldset>
      ))}
      <FormProblem message={problem} />
      {editable && (
        <div className="actions">
          {!chains.some((chain) => chain.branchEmployeeId === null) && (
            <button type="button" onClick={() => setChains((current) => [{ branchEmployeeId: null, branchName: null, reviewerUserIds: [] }, ...current])}>
              <Plus size={16} aria-hidden="true" /> Add the whole company’s chain
            </button>
          )}
          <button type="button" className="primary" disabled={busy} onClick={() => void submit()}>
            Save approval chains
          </button>
        </div>
      )}
    </Section>
  );
}

/** The chains as a CSV: the export is the template; an upload is checked line by line, and imported all or nothing. */
function ChainsFile({ settings, editable }: { settings: Settings; editable: boolean }) {
  const { add } = useToasts();
  const [, navigate] = useLocation();
  const [text, setText] = useState<{ name: string; content: string } | null>(null);
  const [result, setResult] = useState<ChainImport | null>(null);
  const { run: write, busy } = useMutation();

  async function exportFile() {
    const made = await write(() => api.POST('/api/workflow-settings/merit-chains/export', { params: { query: {} } }));
    if (made.ok) navigate(`/downloads/${made.data.data.id}`);
  }

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setText({ name: file.name, content: await file.text() });
    setResult(null);
  }

  async function run(dryRun: boolean) {
    if (!text) return;
    const imported = await write(() =>
      api.POST('/api/workflow-settings/merit-chains/import', {
        params: { query: { dryRun }, header: dryRun ? {} : { 'If-Match': `"${settings.version}"` } },
        body: text.content,
        bodySerializer: (body: unknown) => body as BodyInit,
        headers: { 'Content-Type': 'text/csv' },
      }),
    );
    if (!imported.ok) return;
    setResult(imported.data.data);
    // A dry run or a file with problems changes nothing; only an applied import is asked again.
    if (imported.data.data.applied) {
      await invalidate('/api/workflow-settings');
      add('success', `${imported.data.data.chains.length} approval chains imported from ${text.name}.`);
    }
  }

  return (
    <Section title="Approval chains from a CSV file" id="workflow-file-heading">
      <p className="muted">
        One line per chain: <code>Manager email</code> (the employee at the root of the branch; empty for the whole company), then <code>Approver 1 email</code>, <code>Approver 2 email</code>, … in order. Every line is checked; with one problem nothing is imported.
      </p>
      <div className="actions">
        <button type="button" disabled={busy} onClick={() => void exportFile()}>
          <Download size={16} aria-hidden="true" /> Download the chains as CSV
        </button>
        {editable && (
          <label className="button">
            <Upload size={16} aria-hidden="true" /> Choose a CSV file
            <input type="file" accept=".csv,text/csv" className="visually-hidden" onChange={(event) => void choose(event)} />
          </label>
        )}
      </div>
      {text && editable && (
        <div className="actions">
          <span>{text.name}</span>
          <button type="button" disabled={busy} onClick={() => void run(true)}>
            Check the file
          </button>
          <button type="button" className="primary" disabled={busy} onClick={() => void run(false)}>
            Import the chains
          </button>
        </div>
      )}
      {result && (
        <div role="status" className="workflow-import">
          {result.problems.length > 0 ? (
            <>
              <p>
                {result.problems.length === 1 ? '1 problem' : `${result.problems.length} problems`} in {result.rowCount === 1 ? '1 line' : `${result.rowCount} lines`}; nothing was imported.
              </p>
              <table>
                <caption className="visually-hidden">Problems in the file</caption>
                <thead>
                  <tr>
                    <th scope="col">Line</th>
                    <th scope="col">Column</th>
                    <th scope="col">Problem</th>
                  </tr>
                </thead>
                <tbody>
                  {result.problems.map((problem, index) => (
                    <tr key={`${problem.line}-${index}`}>
                      <td>{problem.line}</td>
                      <td>{problem.column ?? '—'}</td>
                      <td>{problem.message}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          ) : (
            <>
              <p>{result.applied ? `Imported ${result.chains.length} chains.` : `The file is fine: ${result.chains.length} chains would be imported.`}</p>
              <ul>
                {result.chains.map((chain) => (
                  <li key={chain.branchEmployeeId ?? 'company'}>
                    {chain.branchEmployeeId ? `Branch of ${chain.branchName ?? chain.branchEmail ?? 'an employee'}` : 'Whole company'}: {chain.reviewers.map((reviewer) => reviewer.name).join(' → ')}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </Section>
  );
}

function OfferApprovals({ editable }: { editable: boolean }) {
  const settings = useQuery('/api/offers/approval-settings');
  return (
    <Section title="Offer approvals" id="workflow-offers-heading">
      <p className="muted">An offer out of band goes to approvers: a rule for its department first, then one for its location, then the default rule (neither). With no matching rule, no approval is needed.</p>
      <Loaded data={settings.data?.data} error={settings.error} retry={() => void settings.mutate()}>
        {(data) => <RulesEditor key={data.version} settings={data} editable={editable} />}
      </Loaded>
    </Section>
  );
}

/** /settings/workflows: who approves what — offers, band-set publication and merit-cycle chains — as data the modules read. */
export function WorkflowsScreen() {
  const person = usePerson().data?.data;
  const settings = useQuery('/api/workflow-settings');
  const users = useQuery('/api/users', { params: { query: { limit: 500 } } });
  const people = (users.data?.data ?? []).filter((user) => user.status === 'active' && !user.isCandidate);
  const editable = can(person, 'companySettings', 'edit') && !person?.viewAs;
  const modules = person?.modules ?? [];
  const has = (module: string) => modules.some((entry) => entry.module === module && entry.authorized);
  return (
    <div className="workflows">
      <PageHeader
        title="Workflows"
        icon={GitBranch}
        description="Who approves what: out-of-band offers, band sets before they go live, and the merit-cycle review chains a new cycle starts with."
      />
      {!editable && <p className="muted">You can read these settings; changing them needs the company settings edit permission.</p>}
      {has('visualOfferLetter') && <OfferApprovals editable={can(person, 'offers', 'edit') && !person?.viewAs} />}
      <Loaded data={settings.data?.data} error={settings.error} retry={() => void settings.mutate()}>
        {(data) => (
          <>
            <BandPublication key={`bands-${data.version}`} settings={data} people={people} editable={editable} />
            <MeritChains key={`merit-${data.version}`} settings={data} people={people} editable={editable} />
            <ChainsFile settings={data} editable={editable} />
          </>
        )}
      </Loaded>
    </div>
  );
}
