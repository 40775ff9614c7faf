import { useQuery } from '../../api/client';
import { Empty, Loaded } from '../../ui/States';
import { type Schemas, valueText, words } from './common';

type Change = Schemas['PeopleChange'];

const ENTITY_NAMES: Record<Change['entity'], string> = { employee: 'Record', payRecord: 'Pay record', grant: 'Equity grant' };
const SOURCE_NAMES: Record<Change['source'], string> = { app: 'in Paybench', import: 'by an import', sync: 'by the HR system sync' };
const FIELD_WORDS: Record<string, string> = {
  companyJobId: 'Company job',
  jobFamilyId: 'Job family',
  levelId: 'Level',
  managerId: 'Manager',
  locationId: 'Location',
  countryCode: 'Country',
  'leave.startDate': 'Leave from',
  'leave.endDate': 'Leave until',
  terminationDate: 'End date',
  percentOfBase: 'Percent of base',
  effectiveDate: 'Effective',
};

const fieldName = (field: string): string => FIELD_WORDS[field] ?? words(field.replace(/^demographics\./, 'demographics '));
const when = (timestamp: string): string => new Date(timestamp).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** One save: the changes one person made to one record at one moment. */
interface Save {
  key: string;
  changes: Change[];
}

function savesOf(changes: Change[]): Save[] {
  const saves: Save[] = [];
  for (const change of changes) {
    const key = `${change.changedAt}|${change.entity}|${change.entityId}|${change.changedBy?.userId ?? ''}`;
    const last = saves.at(-1);
    if (last?.key === key) last.changes.push(change);
    else saves.push({ key, changes: [change] });
  }
  return saves;
}

function what(save: Save): string {
  const [first] = save.changes;
  if (!first) return '';
  const added = save.changes.every((change) => change.oldValue === null);
  const removed = save.changes.every((change) => change.newValue === null);
  const entity = ENTITY_NAMES[first.entity];
  if (first.entity === 'employee') return entity;
  return `${entity} ${added ? 'added' : removed ? 'deleted' : 'corrected'}`;
}

/**
 * Who changed what of this employee, when, and from what: newest first, one entry per save. Pay
 * changes are listed to those who may see this person's pay, demographics to those who may see them.
 */
export function History({ employeeId }: { employeeId: string }) {
  const changes = useQuery('/api/employees/{employeeId}/changes', { params: { path: { employeeId } } });
  return (
    <section className="people-section" aria-labelledby="record-history">
      <header className="people-head">
        <h3 id="record-history">History</h3>
      </header>
      <Loaded data={changes.data?.data} error={changes.error} retry={() => void changes.mutate()}>
        {(list) =>
          list.length === 0 ? (
            <Empty title="No changes yet" headingLevel={3} compact>
              Corrections made here, imports and syncs are listed once they happen.
            </Empty>
          ) : (
            <ol className="people-history" aria-label="Changes">
              {savesOf(list).map((save) => {
                const [first] = save.changes;
                if (!first) return null;
                return (
                  <li key={save.key}>
                    <p className="people-history-who">
                      <strong>{what(save)}</strong> · {when(first.changedAt)} · {first.changedBy?.name ?? 'Paybench'} {SOURCE_NAMES[first.source]}
                    </p>
                    <ul>
                      {save.changes.map((change) => (
                        <li key={change.id}>
                          {fieldName(change.field)}: <span className="people-old">{valueText(change.oldValue, change.oldLabel, change.field)}</span> →{' '}
                          <span className="people-new">{valueText(change.newValue, change.newLabel, change.field)}</span>
                        </li>
                      ))}
                    </ul>
                  </li>
                );
              })}
            </ol>
          )
        }
      </Loaded>
    </section>
  );
}
