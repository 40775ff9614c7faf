import { Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { api, useQuery } from '../../api/client';
import { EmployeeSearch } from '../../ui/EmployeeSearch';
import { Section } from '../../ui/Page';
import { SkeletonTable } from '../../ui/Skeleton';
import { Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { COMPONENT_LABELS, type MeritCycle, Problem, type Schemas, amountToInput, bpToInput, formatBp, formatMoney, parseAmount, parsePercent, refreshPlanning } from './common';
import { NextStep, type SectionProps } from './sections';
import { ReadOnlyNote, changeable, draftOnly, useCycleSave } from './cycleSave';

// ── budget ───────────────────────────────────────────────────────────────────────────────────

const SPEND: Schemas['BudgetConfiguration']['spendComponents'] = ['merit', 'promotion', 'lumpSum'];

export function BudgetSection({ cycle, onSaved }: SectionProps) {
  const { add } = useToasts();
  const budget = cycle.budget;
  const [percent, setPercent] = useState(bpToInput(budget.percentBp));
  const [basis, setBasis] = useState(budget.basis ?? 'orgBranch');
  const [overrides, setOverrides] = useState((budget.overrides ?? []).map((entry) => ({ key: entry.key, label: entry.key, percent: bpToInput(entry.percentBp) })));
  const [spend, setSpend] = useState(budget.spendComponents);
  const [block, setBlock] = useState(budget.blockOverBudget);
  const [local, setLocal] = useState<string | null>(null);
  const save = useCycleSave((ifMatch, body: Schemas['BudgetConfiguration']) =>
    api.PUT('/api/v2/meritCycles/{meritCycleId}/budgets/configuration', { params: { path: { meritCycleId: cycle.id }, header: { 'If-Match': ifMatch } }, body }),
  );
  const draft = draftOnly(cycle);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setLocal(null);
    const percentBp = parsePercent(percent);
    if (percentBp === null) return setLocal('The budget needs a percentage of eligible payroll.');
    const parsed = overrides.map((entry) => ({ key: entry.key.trim(), percentBp: parsePercent(entry.percent) }));
    if (parsed.some((entry) => !entry.key || entry.percentBp === null)) return setLocal('Every override needs a branch or department and a percentage.');
    const body: Schemas['BudgetConfiguration'] = { percentBp, basis, overrides: parsed as { key: string; percentBp: number }[], spendComponents: spend, blockOverBudget: block };
    const result = await save.submit(cycle.version, body);
    if (!result.ok) return;
    await onSaved(result.data.data);
    add('success', 'The budget is saved.');
  }

  return (
    <>
      <Section title="Budget" id="cycle-budget">
        <ReadOnlyNote cycle={cycle} what="The budget’s percentages" />
        <form className="planning-form" aria-label="Budget" onSubmit={(event) => void submit(event)}>
          <fieldset disabled={!draft} className="planning-plain">
            <div className="planning-row">
              <label>
                Budget, % of eligible payroll
                <input inputMode="decimal" value={percent} onChange={(event) => setPercent(event.target.value)} size={6} />
              </label>
              <label>
                Other percentages per
                <select value={basis} onChange={(event) => setBasis(event.target.value === 'department' ? 'department' : 'orgBranch')}>
                  <option value="orgBranch">Org branch</option>
                  <option value="department">Department</option>
                </select>
              </label>
            </div>
            {overrides.length > 0 && (
              <ul className="planning-overrides" aria-label="Other percentages">
                {overrides.map((entry, index) => (
                  <li key={index}>
                    {basis === 'department' ? (
                      <label>
                        Department
                        <input value={entry.key} onChange={(event) => setOverrides(overrides.map((item, at) => (at === index ? { ...item, key: event.target.value, label: event.target.value } : item)))} />
                      </label>
                    ) : (
                      <span className="planning-branch">Branch of {entry.label}</span>
                    )}
                    <label>
                      %
                      <input inputMode="decimal" value={entry.percent} size={5} onChange={(event) => setOverrides(overrides.map((item, at) => (at === index ? { ...item, percent: event.target.value } : item)))} />
                    </label>
                    <button type="button" className="ghost icon-button" aria-label={`Remove the percentage for ${entry.label || 'this line'}`} onClick={() => setOverrides(overrides.filter((_, at) => at !== index))}>
                      <Trash2 size={18} aria-hidden="true" />
                    </button>
                  </li>
                ))}
              </ul>
            )}
            {draft &&
              (basis === 'department' ? (
                <button type="button" onClick={() => setOverrides([...overrides, { key: '', label: '', percent: '' }])}>
                  <Plus size={18} aria-hidden="true" /> Another percentage for a department
                </button>
              ) : (
                <EmployeeSearch label="Another percentage for the branch of" onPick={(employee) => setOverrides([...overrides, { key: employee.id, label: employee.name, percent: '' }])} />
              ))}
            <fieldset className="check-group">
              <legend>What counts against the budget</legend>
              {SPEND.map((component) => (
                <label key={component} className="check">
                  <input
                    type="checkbox"
                    checked={spend.includes(component)}
                    onChange={() => setSpend(spend.includes(component) ? spend.filter((entry) => entry !== component) : SPEND.filter((entry) => entry === component || spend.includes(entry)))}
                  />
                  {COMPONENT_LABELS[component]}
                </label>
              ))}
            </fieldset>
            <label className="check">
              <input type="checkbox" checked={block} onChange={(event) => setBlock(event.target.checked)} /> Refuse changes that take a worksheet over its budget (otherwise it is shown, not blocked)
            </label>
          </fieldset>
          <Problem message={local} />
          {save.problem}
          {draft && (
            <div className="actions">
              <button type="submit" className="primary" disabled={save.busy || spend.length === 0}>
                Save budget
              </button>
            </div>
          )}
        </form>
      </Section>
      {cycle.state !== 'draft' && <Allocations cycle={cycle} />}
      <NextStep cycle={cycle} after="budget" />
    </>
  );
}

type Method = Schemas['BudgetAllocationMethod'];
type Draft = { method: Method; value: string };

const METHOD_LABELS: Record<Method, string> = { computed: 'Computed', percent: '% of eligible pay', amount: 'Amount' };

/**
 * The top-down allocation editor: the budget set at the top and allocated down the org tree, each
 * node by a percentage of its branch's eligible pay or by an amount in its own currency, with what is
 * left to allocate at each node (what its own people may be given).
 */
function Allocations({ cycle }: { cycle: MeritCycle }) {
  const { add } = useToasts();
  const report = useQuery('/api/v2/meritCycles/{meritCycleId}/budgets/topDown', { params: { path: { meritCycleId: cycle.id } } });
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  const [local, setLocal] = useState<string | null>(null);
  const save = useCycleSave((ifMatch, body: { allocations: Schemas['BudgetAllocationInput'][] }) =>
    api.PUT('/api/v2/meritCycles/{meritCycleId}/budgets/allocations', { params: { path: { meritCycleId: cycle.id }, header: { 'If-Match': ifMatch } }, body }),
  );
  const editable = changeable(cycle);

  function draftOf(node: Schemas['TopDownBudgetNode']): Draft {
    return drafts[node.worksheetId] ?? { method: node.method, value: node.method === 'percent' ? bpToInput(node.percentBp) : node.method === 'amount' ? amountToInput(node.allocated) : '' };
  }

  async function submit(event: FormEvent, data: Schemas['TopDownBudget']) {
    event.preventDefault();
    setLocal(null);
    const allocations: Schemas['BudgetAllocationInput'][] = [];
    for (const node of data.nodes) {
      const draft = drafts[node.worksheetId];
      if (!draft) continue;
      const who = node.plannerName ?? 'people without a manager';
      if (draft.method === 'computed') allocations.push({ worksheetId: node.worksheetId, method: 'computed' });
      else if (draft.method === 'percent') {
        const percentBp = parsePercent(draft.value);
        if (percentBp === null || percentBp < 0 || percentBp > 10_000) return setLocal(`The percentage for ${who} must be between 0 and 100.`);
        allocations.push({ worksheetId: node.worksheetId, method: 'percent', percentBp });
      } else {
        const amount = parseAmount(draft.value, node.currency);
        if (amount === null || amount < 0) return setLocal(`The amount for ${who} must be a positive amount in ${node.currency}.`);
        allocations.push({ worksheetId: node.worksheetId, method: 'amount', amount: { amount, currency: node.currency } });
      }
    }
    if (!allocations.length) return add('info', 'Nothing has changed.');
    const result = await save.submit(data.version, { allocations });
    if (!result.ok) return;
    setDrafts({});
    await refreshPlanning();
    add('success', 'The allocations are saved.');
  }

  return (
    <Section title="Top-down allocation" id="cycle-allocations">
      <Loaded data={report.data?.data} error={report.error} inline skeleton={<SkeletonTable rows={5} columns={6} label="Loading the allocations" />}>
        {(data) => (
          <form aria-label="Top-down allocation" onSubmit={(event) => void submit(event, data)}>
            <p className="planning-muted">
              Each line is a planner’s whole branch, in the planner’s currency. Computed lines take {formatBp(data.percentBp)} of eligible pay (prorated, with the overrides above). What is left at a line is what its planner’s own people may be given.
            </p>
            <div className="table-scroll" role="region" aria-label="Allocations" tabIndex={0}>
              <table className="planning-allocations">
                <caption className="visually-hidden">Allocations down the org tree, each in its planner’s currency</caption>
                <thead>
                  <tr>
                    <th scope="col">Planner</th>
                    <th scope="col" className="number">
                      Eligible pay
                    </th>
                    <th scope="col">Allocate by</th>
                    <th scope="col">Value</th>
                    <th scope="col" className="number">
                      Allocated
                    </th>
                    <th scope="col" className="number">
                      Left to allocate
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.nodes.map((node) => {
                    const who = node.plannerName ?? 'people without a manager';
                    const draft = draftOf(node);
                    const set = (next: Partial<Draft>) => setDrafts({ ...drafts, [node.worksheetId]: { ...draft, ...next } });
                    return (
                      <tr key={node.worksheetId} data-worksheet-id={node.worksheetId}>
                        <th scope="row" style={{ paddingInlineStart: `calc(var(--space-3) * ${node.depth + 1})` }}>
                          {node.plannerName ?? 'People without a manager'} <span className="planning-muted">({node.currency})</span>
                        </th>
                        <td className="number">{formatMoney(node.eligiblePay)}</td>
                        <td>
                          <select aria-label={`Allocate by, for ${who}`} value={draft.method} disabled={!editable} onChange={(event) => set({ method: event.target.value as Method, value: '' })}>
                            {(Object.keys(METHOD_LABELS) as Method[]).map((method) => (
                              <option key={method} value={method}>
                                {METHOD_LABELS[method]}
                              </option>
                            ))}
                          </select>
                        </td>
                        <td>
                          {draft.method !== 'computed' && (
                            <input
                              aria-label={draft.method === 'percent' ? `Percentage for ${who}` : `Amount for ${who} (${node.currency})`}
                              inputMode="decimal"
                              size={10}
                              disabled={!editable}
                              value={draft.value}
                              onChange={(event) => set({ value: event.target.value })}
                            />
                          )}
                          {draft.method === 'percent' && ' %'}
                        </td>
                        <td className="number" data-testid="allocation-allocated">
                          {formatMoney(node.allocated)}
                        </td>
                        <td className={node.overAllocated ? 'number planning-over' : 'number'} data-testid="allocation-left">
                          {formatMoney(node.leftToAllocate)}
                          {node.overAllocated ? ' (over-allocated)' : ''}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            {local && <Problem message={local} />}
            {save.problem}
            {editable && (
              <div className="actions">
                <button type="submit" className="primary" disabled={save.busy}>
                  Save allocations
                </button>
              </div>
            )}
          </form>
        )}
      </Loaded>
    </Section>
  );
}
