import { type FormEvent, useState } from 'react';
import { api, errorMessage, useQuery } from '../../api/client';
import { useVersionedSave } from '../../api/queries';
import { Section } from '../../ui/Page';
import { SkeletonTable } from '../../ui/Skeleton';
import { Empty, Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { Problem, type Schemas, fieldProblems, formatNumber, refreshBands } from './common';

type Grade = Schemas['CompGrade'];

/** A grade's name, renamed at the version read: a rename someone saved first is refused, and what was typed stays. */
function GradeRename({ grade, done }: { grade: Grade; done: () => void }) {
  const { add } = useToasts();
  const [name, setName] = useState(grade.name);
  const { save, busy } = useVersionedSave((ifMatch, body: { name: string }) =>
    api.PATCH('/api/bands/grades/{gradeId}', { params: { path: { gradeId: grade.id }, header: { 'If-Match': ifMatch } }, body }),
  );
  async function submit(event: FormEvent) {
    event.preventDefault();
    const result = await save(grade.version, { name: name.trim() });
    if (!result.ok) return;
    add('success', `Renamed grade ${grade.key} to ${name.trim()}.`);
    done();
    await refreshBands();
  }
  return (
    <form className="bands-inline-form" onSubmit={(event) => void submit(event)} aria-label={`Rename grade ${grade.key}`}>
      <label>
        Name of {grade.key}
        <input value={name} maxLength={200} required onChange={(event) => setName(event.target.value)} />
      </label>
      <button type="submit" className="small" disabled={busy || !name.trim() || name.trim() === grade.name}>
        Save name
      </button>
      <button type="button" className="small ghost" onClick={done}>
        Cancel
      </button>
    </form>
  );
}

/** The company's comp grades: add one (key, name), rename one, delete one no job or band uses. */
export function GradesManager({ editable }: { editable: boolean }) {
  const grades = useQuery('/api/bands/grades');
  const { add } = useToasts();
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<{ message: string; fields: string[] } | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  async function create(event: FormEvent) {
    event.preventDefault();
    const { error } = await api.POST('/api/bands/grades', { body: { key: key.trim(), ...(name.trim() ? { name: name.trim() } : {}) } });
    if (error) return setProblem({ message: errorMessage(error), fields: fieldProblems(error) });
    add('success', `Added grade ${key.trim()}.`);
    setKey('');
    setName('');
    setProblem(null);
    await refreshBands();
  }
  async function remove(grade: Grade) {
    const { error } = await api.DELETE('/api/bands/grades/{gradeId}', { params: { path: { gradeId: grade.id } } });
    if (error) return add('error', errorMessage(error));
    add('success', `Deleted grade ${grade.key}.`);
    await refreshBands();
  }
  return (
    <Section title="Comp grades" id="grades-heading">
      <p className="bands-muted">A company job with a grade and no band of its own in a pay zone is priced by its grade’s band there.</p>
      <Loaded data={grades.data?.data} error={grades.error} retry={() => void grades.mutate()} skeleton={<SkeletonTable rows={2} columns={3} label="Loading the grades" />}>
        {(list) =>
          list.length === 0 ? (
            <Empty title="No grades yet" compact>
              {editable ? 'Add grades such as G1 to G12 below, then give company jobs their grade.' : 'The company has no comp grades.'}
            </Empty>
          ) : (
            <ul className="bands-grade-list" aria-label="Comp grades">
              {list.map((grade) => (
                <li key={grade.id} data-grade-id={grade.id}>
                  <strong>{grade.key}</strong> {grade.name !== grade.key ? grade.name : ''} · {formatNumber(grade.jobCount)} {grade.jobCount === 1 ? 'job' : 'jobs'}
                  {editable && renaming !== grade.id && (
                    <button type="button" className="small ghost" onClick={() => setRenaming(grade.id)} aria-label={`Rename grade ${grade.key}`}>
                      Rename
                    </button>
                  )}
                  {editable && (
                    <button type="button" className="small ghost" onClick={() => void remove(grade)} aria-label={`Delete grade ${grade.key}`}>
                      Delete
                    </button>
                  )}
                  {renaming === grade.id && <GradeRename grade={grade} done={() => setRenaming(null)} />}
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      {editable && (
        <form className="bands-inline-form" onSubmit={(event) => void create(event)} aria-label="Add a grade">
          <label>
            Grade key
            <input value={key} maxLength={32} required onChange={(event) => setKey(event.target.value)} />
          </label>
          <label>
            Grade name (optional)
            <input value={name} maxLength={200} onChange={(event) => setName(event.target.value)} />
          </label>
          <button type="submit" disabled={!key.trim()}>
            Add grade
          </button>
          {problem && <Problem message={problem.message} fields={problem.fields} />}
        </form>
      )}
    </Section>
  );
}