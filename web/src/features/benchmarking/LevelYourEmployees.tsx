import { Users } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, statusOf, useInfiniteQuery } from '../../api/client';
import { useMutation } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { Badge } from '../../ui/Badge';
import type { Column } from '../../ui/DataTable';
import { DataGrid } from '../../ui/DataGrid';
import { Sheet } from '../../ui/Modal';
import { SkeletonTable } from '../../ui/Skeleton';
import { Empty, ErrorState } from '../../ui/States';
import { can } from '../settings/permissions';
import { useBenchmarkingCatalog } from './data';
import { BenchmarkingFrame } from './Frame';
import './benchmarking.css';

type LevelledEmployee = components['schemas']['LevelledEmployee'];

const PAGE = 200;
const CONFIDENCE: Record<string, string> = { high: 'High', medium: 'Medium', low: 'Low' };
const TONE: Record<string, 'success' | 'warning' | 'neutral'> = { high: 'success', medium: 'warning', low: 'neutral' };

/** A family and level taken into an employee's record, and how it went. */
interface Placement {
  employee: LevelledEmployee;
  jobFamilyId: string;
  levelId: string;
}

interface Outcome {
  saved: number;
  refused: { name: string; message: string }[];
}

/**
 * Each placement written to its employee's record at the version the grid read (If-Match), one
 * after another: a record changed meanwhile is refused and named, the others are saved.
 */
async function placeAll(placements: readonly Placement[]): Promise<Outcome> {
  const outcome: Outcome = { saved: 0, refused: [] };
  for (const placement of placements) {
    const { error } = await api.PATCH('/api/employees/{employeeId}', {
      params: { path: { employeeId: placement.employee.employeeId }, header: { 'If-Match': `"${placement.employee.version}"` } },
      body: { jobFamilyId: placement.jobFamilyId, levelId: placement.levelId },
    });
    if (error === undefined) outcome.saved += 1;
    else {
      const conflict = statusOf(error) === 409 || statusOf(error) === 412;
      outcome.refused.push({ name: placement.employee.name, message: conflict ? 'Someone else changed this record first; reload to see it.' : errorMessage(error) });
    }
  }
  return outcome;
}

const today = (employee: LevelledEmployee, name: (id: string) => string): string =>
  `${employee.current.jobFamilyId ? name(employee.current.jobFamilyId) : 'No job family'} · ${employee.current.levelId ? name(employee.current.levelId) : 'no level'}`;

const suggested = (employee: LevelledEmployee): string => (employee.suggestion ? `${employee.suggestion.jobFamilyName} · ${employee.suggestion.levelDisplay}` : 'No catalog family matches');

/** Rows whose suggestion differs from the record: what "use the suggested level" can take. */
const takeable = (rows: readonly LevelledEmployee[]) => rows.filter((row) => row.suggestion && !row.suggestion.matchesCurrent);

/** /benchmarkingsurvey/level-your-employees: a suggested market family and level for each employee in reach, in a dense grid, taken into records one by one or in bulk. */
export function LevelYourEmployeesScreen() {
  const { name, catalog, filters } = useBenchmarkingCatalog();
  const person = usePerson().data?.data;
  const mayEdit = can(person, 'team', 'edit');
  const { data, error, size, setSize, isValidating, mutate } = useInfiniteQuery('/api/benchmarking/level-your-employees', (index, previous) => {
    if (previous && !previous.page.nextCursor) return null;
    const cursor = index > 0 ? previous?.page.nextCursor : undefined;
    return { params: { query: cursor ? { cursor, limit: PAGE } : { limit: PAGE } } };
  });
  const rows = useMemo(() => (data ?? []).flatMap((page) => page.data.employees), [data]);
  const hasMore = Boolean(data?.at(-1)?.page.nextCursor);
  const [open, setOpen] = useState<LevelledEmployee | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const { run, busy } = useMutation();

  async function place(placements: Placement[]): Promise<boolean> {
    const answer = await run(async () => ({ data: await placeAll(placements) }), { invalidates: ['/api/benchmarking/level-your-employees', '/api/team/employees/table'] });
    if (!answer.ok) return false;
    setOutcome(answer.data);
    await mutate();
    return answer.data.refused.length === 0;
  }

  const columns: Column<LevelledEmployee>[] = [
    { key: 'name', header: 'Employee', rowHeader: true, size: 190, value: (row) => row.name, title: (row) => row.name, cell: (row) => row.name },
    { key: 'title', header: 'Title', size: 220, value: (row) => row.title, title: (row) => row.title || undefined, cell: (row) => row.title || '—' },
    { key: 'today', header: 'Today', size: 230, value: (row) => today(row, name), title: (row) => today(row, name), cell: (row) => today(row, name) },
    { key: 'suggested', header: 'Suggested', size: 250, value: suggested, title: suggested, cell: suggested },
    {
      key: 'confidence',
      header: 'Confidence',
      numeric: true,
      size: 120,
      value: (row) => row.suggestion?.confidence ?? null,
      cell: (row) => (row.suggestion ? <Badge tone={TONE[row.suggestion.confidenceLabel] ?? 'neutral'}>{`${CONFIDENCE[row.suggestion.confidenceLabel] ?? ''} ${Math.round(row.suggestion.confidence * 100)}%`}</Badge> : '—'),
    },
    {
      key: 'record',
      header: 'Record',
      size: 150,
      value: (row) => (row.suggestion ? (row.suggestion.matchesCurrent ? 'Matches' : 'Differs') : 'No suggestion'),
      cell: (row) => (row.suggestion ? row.suggestion.matchesCurrent ? <Badge tone="success">Matches</Badge> : <Badge tone="warning">Differs</Badge> : '—'),
    },
    { key: 'why', header: 'Why', size: 320, value: (row) => row.reasons.join('; '), title: (row) => row.reasons.join('\n'), cell: (row) => row.reasons.join('; ') },
  ];

  let body;
  if (error) body = <ErrorState error={error} retry={() => void mutate()} />;
  else if (!data) body = <SkeletonTable rows={10} columns={6} label="Loading employees" />;
  else if (rows.length === 0)
    body = (
      <Empty
        title="No employees in your reach yet"
        icon={Users}
        action={
          <Link href="/integrations" className="button primary">
            Import people
          </Link>
        }
      >
        Import people data to level them.
      </Empty>
    );
  else
    body = (
      <DataGrid
        id="level-your-employees"
        label="Employees and their suggested levels"
        rows={rows}
        columns={columns}
        rowKey={(row) => row.employeeId}
        rowName={(row) => row.name}
        rowAttributes={(row) => ({ 'data-employee': row.employeeId, 'data-matches': String(row.suggestion?.matchesCurrent ?? false) })}
        filters
        onOpen={setOpen}
        onEndReached={() => {
          if (hasMore && !isValidating) void setSize(size + 1);
        }}
        bulkActions={
          mayEdit
            ? (chosen, clear) => {
                const differing = takeable(chosen);
                return differing.length ? (
                  <button
                    type="button"
                    className="small primary"
                    disabled={busy}
                    onClick={() =>
                      void place(differing.map((row) => ({ employee: row, jobFamilyId: row.suggestion?.jobFamilyId ?? '', levelId: row.suggestion?.levelId ?? '' }))).then((clean) => {
                        if (clean) clear();
                      })
                    }
                  >
                    Use the suggested level for {differing.length} {differing.length === 1 ? 'employee' : 'employees'}
                  </button>
                ) : (
                  <span className="muted">The selected records already match their suggestions.</span>
                );
              }
            : undefined
        }
      />
    );

  return (
    <BenchmarkingFrame>
      <h1>Level your employees</h1>
      <p className="lede">Each employee’s job family and level in the market’s terms, suggested from their title, record and pay, with how sure the suggestion is. Open a row for the reasons; select rows to take their suggestions into the records.</p>
      {outcome && (
        <div className={outcome.refused.length ? 'levelling-outcome refused' : 'levelling-outcome'} role="status">
          <p>
            {outcome.saved} {outcome.saved === 1 ? 'record' : 'records'} updated.
            {outcome.refused.length > 0 && ` ${outcome.refused.length} refused, unchanged:`}
          </p>
          {outcome.refused.length > 0 && (
            <ul>
              {outcome.refused.map((entry) => (
                <li key={entry.name}>
                  <strong>{entry.name}</strong>: {entry.message}
                </li>
              ))}
            </ul>
          )}
          <button type="button" className="small ghost" onClick={() => setOutcome(null)}>
            Dismiss
          </button>
        </div>
      )}
      {body}
      {open && (
        <LevelSheet
          key={open.employeeId}
          employee={open}
          name={name}
          families={(catalog ?? []).map((entry) => ({ id: entry.upstreamId, label: entry.displayString }))}
          levels={(filters?.levelsWithIds.levelTracks ?? []).flatMap((track) => track.levels.map((level) => ({ id: level.id, label: level.displayString })))}
          mayEdit={mayEdit}
          busy={busy}
          onSave={async (placement) => {
            if (await place([placement])) setOpen(null);
          }}
          onClose={() => setOpen(null)}
        />
      )}
    </BenchmarkingFrame>
  );
}

interface Option {
  id: string;
  label: string;
}

/** One employee: why the suggestion, and the family and level to keep in the record (the suggestion first). */
function LevelSheet({ employee, name, families, levels, mayEdit, busy, onSave, onClose }: {
  employee: LevelledEmployee;
  name: (id: string) => string;
  families: Option[];
  levels: Option[];
  mayEdit: boolean;
  busy: boolean;
  onSave: (placement: Placement) => Promise<void>;
  onClose: () => void;
}) {
  const [family, setFamily] = useState(employee.suggestion?.jobFamilyId ?? employee.current.jobFamilyId ?? '');
  const [level, setLevel] = useState(employee.suggestion?.levelId ?? employee.current.levelId ?? '');
  const unchanged = family === (employee.current.jobFamilyId ?? '') && level === (employee.current.levelId ?? '');
  return (
    <Sheet title={employee.name} onClose={onClose}>
      <dl className="levelling">
        <dt>Title</dt>
        <dd>{employee.title || '—'}</dd>
        <dt>Today</dt>
        <dd>{today(employee, name)}</dd>
        <dt>Suggested</dt>
        <dd>{suggested(employee)}</dd>
      </dl>
      <h3>Why</h3>
      <ul>
        {employee.reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
      {!employee.signals.payConsidered && <p className="muted small-text">Pay was not considered.</p>}
      {mayEdit && (
        <form
          className="levelling-form"
          onSubmit={(event) => {
            event.preventDefault();
            void onSave({ employee, jobFamilyId: family, levelId: level });
          }}
        >
          <label>
            Job family in the record
            <select value={family} onChange={(event) => setFamily(event.target.value)} required>
              <option value="">Choose a family</option>
              {families.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            Level in the record
            <select value={level} onChange={(event) => setLevel(event.target.value)} required>
              <option value="">Choose a level</option>
              {levels.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.label}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="primary" disabled={busy || unchanged || !family || !level}>
            Save to the record
          </button>
        </form>
      )}
    </Sheet>
  );
}
