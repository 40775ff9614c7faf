import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { useQuery } from '../../api/client';
import { usePerson } from '../../app/Guard';
import { PageHeader } from '../../ui/Page';
import { SkeletonText } from '../../ui/Skeleton';
import { Loaded } from '../../ui/States';
import { formatDate } from '../../ui/format';
import { holds, words } from './common';
import { EmployeeEditor, EndEmployment } from './EmployeeEditor';
import { Grants } from './Grants';
import { History } from './History';
import { PayRecords } from './PayRecords';
import './people.css';

/**
 * Correcting one employee's records: their record (job, place, manager, employment, leave, dates),
 * their pay records and equity grants, and the history of every change. Each part shows and saves
 * as the person's permissions allow (team edit for the record, employee compensation for pay).
 */
export function EmployeeRecordPanels({ employeeId }: { employeeId: string }) {
  const person = usePerson().data?.data;
  const employee = useQuery('/api/employees/{employeeId}', { params: { path: { employeeId } } });
  const viewingAs = Boolean(person?.viewAs);
  const editsRecord = holds(person, 'team', 'edit') && !viewingAs;
  const seesPay = holds(person, 'employeeCompensation', 'view');
  const editsPay = holds(person, 'employeeCompensation', 'edit') && !viewingAs;
  // A new editor (with the record as stored now) after a save or a reload.
  const [generation, setGeneration] = useState(0);
  const renew = () => setGeneration((current) => current + 1);
  return (
    <div className="people-record">
      <Loaded data={employee.data?.data} error={employee.error} retry={() => void employee.mutate()} skeleton={<SkeletonText lines={6} label="Loading the record" />}>
        {(record) => (
          <>
            <section className="people-section" aria-labelledby="record-editor">
              <header className="people-head">
                <h3 id="record-editor">Record</h3>
                <span className="muted small-text">
                  {words(record.status)}
                  {record.terminationDate && ` · left ${formatDate(record.terminationDate)}`} · version {record.version}
                </span>
              </header>
              {!editsRecord && <p className="muted small-text">Changing this record needs the team permission (edit).</p>}
              <EmployeeEditor
                key={generation}
                employee={record}
                editable={editsRecord}
                onSaved={renew}
                onReload={() => void employee.mutate().then(renew)}
              />
              {editsRecord && <EndEmployment key={`end-${record.version}`} employee={record} />}
            </section>
            {seesPay ? (
              <>
                <PayRecords employee={record} editable={editsPay} />
                <Grants employee={record} editable={editsPay} />
              </>
            ) : (
              <p className="pay-note">Pay records and grants are shown to people with the employee compensation permission for this person.</p>
            )}
            <History employeeId={record.id} />
          </>
        )}
      </Loaded>
    </div>
  );
}

/** /people/:employeeId: one employee's records on a page of their own. */
export function EmployeeRecordScreen() {
  const { employeeId = '' } = useParams<{ employeeId: string }>();
  const employee = useQuery('/api/employees/{employeeId}', { params: { path: { employeeId } } });
  const name = employee.data ? `${employee.data.data.firstName} ${employee.data.data.lastName}` : 'Employee';
  return (
    <div className="people-page">
      <PageHeader
        title={name}
        eyebrow={<Link href={`/team/employees?employee=${employeeId}`}>Team</Link>}
        description={employee.data ? [employee.data.data.title, employee.data.data.department].filter(Boolean).join(' · ') : undefined}
      />
      <EmployeeRecordPanels employeeId={employeeId} />
    </div>
  );
}
