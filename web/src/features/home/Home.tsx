import { KeyRound } from 'lucide-react';
import { Suspense } from 'react';
import { Link } from 'wouter';
import { useQuery } from '../../api/client';
import { useCompanyProfile } from '../../api/company';
import { usePerson } from '../../app/Guard';
import { homeCards, homeTiles } from '../../app/registry';
import { Badge } from '../../ui/Badge';
import { formatNumber } from '../../ui/format';
import { PageHeader, Section } from '../../ui/Page';
import { JobsList } from '../jobs/JobsList';
import { can } from '../settings/permissions';
import { OwnPay } from './OwnPay';
import './home.css';
import { type Person, dashboardKind, stateOf } from './homeState';
import { CompaRatioDistribution, TeamFigures } from './HomeTeam';
import { Programmes, Waiting, ModuleTiles } from './HomeProgrammes';

const FORTNIGHT_MS = 14 * 24 * 60 * 60 * 1000;

/**
 * Access, in the app: admins see the requests waiting for them; a person sees what became of their
 * own requests decided in the last two weeks.
 */
function AccessNews({ person }: { person: Person }) {
  const decides = can(person, 'roles', 'edit') && !person.viewAs;
  const waiting = useQuery('/api/access-requests', decides ? { params: { query: { status: 'pending' } } } : null).data?.data ?? [];
  const mine = useQuery('/api/me/access-requests', person.companyId && !person.isCandidate ? {} : null).data?.data ?? [];
  const now = Date.now();
  const decided = mine.filter((entry) => entry.status !== 'pending' && entry.decidedAt && now - new Date(entry.decidedAt).getTime() < FORTNIGHT_MS);
  if (!waiting.length && !decided.length) return null;
  const what = (entry: (typeof mine)[number]) => (entry.module ? (homeTiles.get(entry.module)?.title ?? entry.module) : 'the access you asked for');
  return (
    <Section title="Access" id="home-access">
      <ul className="programme-list" aria-label="Access">
        {waiting.length > 0 && (
          <li className="programme">
            <div className="programme-head">
              <span className="programme-icon">
                <KeyRound size={18} aria-hidden="true" />
              </span>
              <h3>Access requests</h3>
              <Badge tone="warning">{`${formatNumber(waiting.length)} waiting`}</Badge>
            </div>
            <p className="muted small-text">
              {waiting.length === 1 ? `${waiting[0]?.requester.firstName ?? 'Someone'} asks for access.` : `${formatNumber(waiting.length)} people ask for access.`} Approve or decline in Users.
            </p>
            <Link href="/settings/users" className="button small">
              Review access requests
            </Link>
          </li>
        )}
        {decided.map((entry) => (
          <li key={entry.id} className="programme">
            <div className="programme-head">
              <span className="programme-icon">
                <KeyRound size={18} aria-hidden="true" />
              </span>
              <h3>{what(entry)}</h3>
              <Badge tone={entry.status === 'approved' ? 'success' : 'neutral'}>{entry.status === 'approved' ? 'Approved' : 'Declined'}</Badge>
            </div>
            <p className="muted small-text">
              {entry.status === 'approved' ? `You now have the ${entry.grantedRole?.name ?? ''} role.` : 'Your request was declined.'}
              {entry.note ? ` “${entry.note}”` : ''}
            </p>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function RecentJobs({ person }: { person: Person }) {
  const explorer = stateOf(person.modules, 'benchmarking')?.authorized;
  return (
    <Section title="Recent jobs" id="home-jobs">
      <JobsList
        limit={5}
        emptyAction={
          explorer ? (
            <Link href="/benchmarkingsurvey/data-explorer" className="button small">
              Run a benchmark to export
            </Link>
          ) : undefined
        }
      />
    </Section>
  );
}

/**
 * /home: a dashboard by role. Admins, planners and analysts see the company (headcount, payroll in
 * the company currency, compa-ratio and its distribution, the programmes, recent jobs); managers see
 * the people they lead; employees their own pay and what is waiting for them. Every tile links to its
 * screen, and says its module's real state where the module is off or not built yet.
 */
export function Home() {
  const person = usePerson().data?.data;
  const company = useCompanyProfile(Boolean(person?.companyId && !person.isCandidate)).profile;
  if (!person) return null;
  const kind = dashboardKind(person);
  const pay = (person.permissionsV3.employeeCompensation ?? []).length > 0;
  const teamView = stateOf(person.modules, 'teamview')?.authorized ?? false;
  const roles = person.companyRolesV2.map((role) => role.name).join(', ') || 'no role yet';
  return (
    <div className="dashboard">
      <PageHeader eyebrow={company?.name ?? 'Paybench'} title={`Welcome, ${person.firstName || person.email}`} description={`Signed in as ${roles}.`} />
      <AccessNews person={person} />
      {kind === 'company' && (
        <>
          <Section title={company ? `${company.name} at a glance` : 'Your company at a glance'} id="home-company">
            <TeamFigures person={person} kind={kind} />
          </Section>
          {teamView && pay && <CompaRatioDistribution />}
          <Section title="Programmes" id="home-programmes">
            <Programmes person={person} />
          </Section>
          <RecentJobs person={person} />
        </>
      )}
      {kind === 'team' && (
        <>
          <Section title="The people you lead" id="home-team">
            <TeamFigures person={person} kind={kind} />
          </Section>
          {teamView && pay && <CompaRatioDistribution />}
        </>
      )}
      {!person.isCandidate && (
        <Suspense fallback={null}>
          {homeCards.map(({ key, card: Card }) => (
            <Card key={key} />
          ))}
        </Suspense>
      )}
      {!person.isCandidate && <OwnPay prominent={kind === 'own'} />}
      {kind === 'own' && !person.isCandidate && <Waiting person={person} />}
      {kind === 'team' && <RecentJobs person={person} />}
      <ModuleTiles person={person} onlyAuthorized={kind === 'own'} />
    </div>
  );
}
