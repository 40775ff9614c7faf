import { Plus, Trash2, Upload } from 'lucide-react';
import { type FormEvent, useMemo, useState } from 'react';
import { api, useQuery } from '../../api/client';
import { EmployeeSearch } from '../../ui/EmployeeSearch';
import { Section } from '../../ui/Page';
import { SkeletonTable } from '../../ui/Skeleton';
import { Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { type MeritCycle, Problem, type Schemas, formatTimestamp, refreshPlanning } from './common';
import { NextStep, type SectionProps } from './sections';
import { changeable, useCycleSave, useUsers } from './cycleSave';

// ── approval chains ──────────────────────────────────────────────────────────────────────────

interface ChainDraft {
  branchEmployeeId: string | null;
  branchName: string | null;
  reviewers: { userId: string; name: string }[];
}

/** "branch,reviewers": a branch's e-mail or employee number (empty: the company-wide chain), reviewers' e-mails split by ";". */
function parseChainsCsv(text: string): { line: number; branch: string; reviewers: string[] }[] {
  return text
    .split(/\r?\n/)
    .map((raw, index) => ({ raw: raw.trim(), line: index + 1 }))
    .filter(({ raw, line }) => raw !== '' && !(line === 1 && /^branch\s*,/i.test(raw)))
    .map(({ raw, line }) => {
      const [branch = '', reviewers = ''] = raw.split(',').map((cell) => cell.trim().replace(/^"|"$/g, ''));
      return { line, branch, reviewers: reviewers.split(';').map((entry) => entry.trim().toLowerCase()).filter(Boolean) };
    });
}

export function ChainsSection({ cycle }: SectionProps) {
  const chains = useQuery('/api/v2/meritCycles/{meritCycleId}/approvalChains', { params: { path: { meritCycleId: cycle.id } } });
  return (
    <>
      <Section title="Approval chains" id="cycle-chains">
        <p className="planning-muted">
          Reviewers in order, per org branch. A worksheet goes to the chain of the nearest branch above its planner, else to the company-wide chain; without one, whole-company planners review it.
        </p>
        <Loaded data={chains.data?.data} error={chains.error} inline skeleton={<SkeletonTable rows={3} columns={2} label="Loading the approval chains" />}>
          {(stored) => <ChainsEditor cycle={cycle} stored={stored} key={stored.map((chain) => `${chain.id}:${chain.version}`).join()} />}
        </Loaded>
      </Section>
      <NextStep cycle={cycle} after="chains" />
    </>
  );
}

function ChainsEditor({ cycle, stored }: { cycle: MeritCycle; stored: Schemas['ApprovalChain'][] }) {
  const { add } = useToasts();
  const users = useUsers();
  const [chains, setChains] = useState<ChainDraft[]>(() =>
    stored.map((chain) => ({ branchEmployeeId: chain.branchEmployeeId, branchName: chain.branchName, reviewers: chain.reviewers.flatMap((reviewer) => (reviewer.userId ? [{ userId: reviewer.userId, name: reviewer.name ?? reviewer.userId }] : [])) })),
  );
  const [local, setLocal] = useState<string[] | null>(null);
  const [bulkUser, setBulkUser] = useState('');
  const save = useCycleSave((ifMatch, body: { chains: Schemas['ApprovalChainInput'][] }) =>
    api.PUT('/api/v2/meritCycles/{meritCycleId}/approvalChains', { params: { path: { meritCycleId: cycle.id }, header: { 'If-Match': ifMatch } }, body }),
  );
  const bulk = useCycleSave((ifMatch, body: { action: 'add' | 'remove'; reviewerUserId: string }) =>
    api.POST('/api/v2/meritCycles/{meritCycleId}/approvalChains/reviewers', { params: { path: { meritCycleId: cycle.id }, header: { 'If-Match': ifMatch } }, body }),
  );
  const userList = users.data?.data ?? [];
  const nameOf = (user: Schemas['User']) => [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
  const editable = changeable(cycle);
  const hasDefault = chains.some((chain) => chain.branchEmployeeId === null);

  async function store(next: ChainDraft[], done: string) {
    setLocal(null);
    const result = await save.submit(cycle.version, { chains: next.map((chain) => ({ branchEmployeeId: chain.branchEmployeeId, reviewerUserIds: chain.reviewers.map((reviewer) => reviewer.userId) })) });
    if (!result.ok) return;
    await refreshPlanning();
    add('success', done);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (chains.some((chain) => chain.reviewers.length === 0)) return setLocal(['Every chain needs at least one reviewer.']);
    await store(chains, 'The approval chains are saved.');
  }

  async function changeEverywhere(action: 'add' | 'remove') {
    if (!bulkUser) return;
    const result = await bulk.submit(cycle.version, { action, reviewerUserId: bulkUser });
    if (!result.ok) return;
    await refreshPlanning();
    add('success', action === 'add' ? 'Added to every chain.' : 'Removed from every chain.');
  }

  async function upload(file: File) {
    const rows = parseChainsCsv(await file.text());
    const byEmail = new Map(userList.map((user) => [user.email.toLowerCase(), user]));
    const problems: string[] = [];
    const next: ChainDraft[] = [];
    for (const row of rows) {
      const reviewers = row.reviewers.map((email) => ({ email, user: byEmail.get(email) }));
      for (const missing of reviewers.filter((entry) => !entry.user)) problems.push(`Line ${row.line}: no user with the e-mail ${missing.email}`);
      if (!row.reviewers.length) problems.push(`Line ${row.line}: no reviewers`);
      let branch: { id: string; name: string } | null = null;
      if (row.branch) {
        const { data } = await api.GET('/api/employees', { params: { query: { search: row.branch, limit: 5 } } });
        const match = data?.data.find((employee) => employee.email?.toLowerCase() === row.branch.toLowerCase() || employee.employeeNumber === row.branch);
        if (!match) problems.push(`Line ${row.line}: no employee with the e-mail or number ${row.branch}`);
        else branch = { id: match.id, name: [match.firstName, match.lastName].filter(Boolean).join(' ') };
      }
      next.push({ branchEmployeeId: branch?.id ?? null, branchName: branch?.name ?? null, reviewers: reviewers.flatMap((entry) => (entry.user ? [{ userId: entry.user.id, name: nameOf(entry.user) }] : [])) });
    }
    if (problems.length) return setLocal(problems);
    setChains(next);
    await store(next, `The approval chains from ${file.name} are saved.`);
  }

  const userOptions = useMemo(
    () =>
      userList.map((user) => (
        <option key={user.id} value={user.id}>
          {nameOf(user)} ({user.email})
        </option>
      )),
    [userList],
  );

  return (
    <form className="planning-form" aria-label="Approval chains" onSubmit={(event) => void submit(event)}>
      <fieldset disabled={!editable} className="planning-plain">
        {chains.length === 0 && <p>No chains yet: whole-company planners review every worksheet.</p>}
        <ol className="planning-chains">
          {chains.map((chain, index) => (
            <li key={chain.branchEmployeeId ?? 'default'}>
              <h3>{chain.branchEmployeeId ? `Branch of ${chain.branchName ?? 'an employee'}` : 'Company-wide (default)'}</h3>
              <ol className="planning-reviewers" aria-label="Reviewers in order">
                {chain.reviewers.map((reviewer, at) => (
                  <li key={reviewer.userId}>
                    <span>
                      {at + 1}. {reviewer.name}
                    </span>
                    <button
                      type="button"
                      className="ghost icon-button"
                      aria-label={`Remove ${reviewer.name} from this chain`}
                      onClick={() => setChains(chains.map((item, i) => (i === index ? { ...item, reviewers: item.reviewers.filter((entry) => entry.userId !== reviewer.userId) } : item)))}
                    >
                      <Trash2 size={18} aria-hidden="true" />
                    </button>
                  </li>
                ))}
              </ol>
              <label>
                Add a reviewer
                <select
                  value=""
                  onChange={(event) => {
                    const user = userList.find((entry) => entry.id === event.target.value);
                    if (!user || chain.reviewers.some((entry) => entry.userId === user.id)) return;
                    setChains(chains.map((item, i) => (i === index ? { ...item, reviewers: [...item.reviewers, { userId: user.id, name: nameOf(user) }] } : item)));
                  }}
                >
                  <option value="">Choose a person</option>
                  {userOptions}
                </select>
              </label>
              <button type="button" className="small ghost" onClick={() => setChains(chains.filter((_, i) => i !== index))}>
                Remove this chain
              </button>
            </li>
          ))}
        </ol>
        {editable && (
          <div className="planning-add-chain">
            {!hasDefault && (
              <button type="button" onClick={() => setChains([...chains, { branchEmployeeId: null, branchName: null, reviewers: [] }])}>
                <Plus size={18} aria-hidden="true" /> Add the company-wide chain
              </button>
            )}
            <EmployeeSearch
              label="Add a chain for the branch of"
              onPick={(employee) => {
                if (!chains.some((chain) => chain.branchEmployeeId === employee.id)) setChains([...chains, { branchEmployeeId: employee.id, branchName: employee.name, reviewers: [] }]);
              }}
            />
          </div>
        )}
      </fieldset>
      {local && <Problem message="The approval chains cannot be saved as they are." fields={local} />}
      {save.problem}
      {editable && (
        <div className="actions">
          <button type="submit" className="primary" disabled={save.busy}>
            Save approval chains
          </button>
          <label className="button">
            <Upload size={18} aria-hidden="true" /> Upload a CSV
            <input
              type="file"
              accept=".csv,text/csv"
              className="visually-hidden"
              onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = '';
                if (file) void upload(file);
              }}
            />
          </label>
        </div>
      )}
      {editable && (
        <p className="planning-muted">A CSV has a line per chain: the branch (an employee’s e-mail or number; empty for the company-wide chain), then the reviewers’ e-mails in order, split by “;”.</p>
      )}
      {editable && chains.length > 0 && (
        <fieldset className="planning-plain planning-bulk">
          <legend>Every chain at once</legend>
          <label>
            Person
            <select value={bulkUser} onChange={(event) => setBulkUser(event.target.value)}>
              <option value="">Choose a person</option>
              {userOptions}
            </select>
          </label>
          <button type="button" disabled={!bulkUser || bulk.busy} onClick={() => void changeEverywhere('add')}>
            Add to every chain
          </button>
          <button type="button" disabled={!bulkUser || bulk.busy} onClick={() => void changeEverywhere('remove')}>
            Remove from every chain
          </button>
          {bulk.problem}
        </fieldset>
      )}
      <p className="planning-muted">Changes apply to worksheets submitted from now on{cycle.state === 'active' ? `; saved ${formatTimestamp(cycle.updatedAt)}` : ''}.</p>
    </form>
  );
}
