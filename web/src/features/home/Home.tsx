import { CalendarClock, ChartColumn, KeyRound, Layers, Mail, Sparkles, Users } from 'lucide-react';
import { type ReactNode, Suspense } from 'react';
import { Link } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { errorMessage, useQuery } from '../../api/client';
import { useCompanyProfile } from '../../api/company';
import { usePerson } from '../../app/Guard';
import { homeCards, homeTiles } from '../../app/registry';
import type { ModuleName } from '../../app/webModule';
import { Badge, type Tone } from '../../ui/Badge';
import { BarList, colourOf } from '../../ui/charts';
import { formatMoney, formatNumber } from '../../ui/format';
import { PageHeader, Section } from '../../ui/Page';
import { SkeletonChart, SkeletonStats } from '../../ui/Skeleton';
import { StatCard, StatGrid } from '../../ui/StatCard';
import { Empty } from '../../ui/States';
import { JobsList } from '../jobs/JobsList';
import { can } from '../settings/permissions';
import { OwnPay } from './OwnPay';
import './home.css';

type Person = components['schemas']['Person'];
type ModuleState = components['schemas']['ModuleState'];

/** Whose dashboard this is, from what the person may see: the whole company, their reports, or themselves. */
export type DashboardKind = 'company' | 'team' | 'own';

export function dashboardKind(person: Person): DashboardKind {
  const scopes = (person.permissionsV3.team ?? []).map((grant) => grant.scope);
  if (scopes.includes('all')) return 'company';
  if (scopes.length > 0) return 'team';
  return 'own';
}

const stateOf = (modules: ModuleState[], module: ModuleName) => modules.find((entry) => entry.module === module);

/** A module's state in the words every tile uses: open to the person, not in their role, or off. */
function stateText(entry: ModuleState | undefined): { text: string; tone: Tone } {
  if (entry?.authorized) return { text: 'Available', tone: 'success' };
  if (entry?.available) return { text: 'Not included in your role', tone: 'neutral' };
  return { text: 'Not switched on for your company', tone: 'neutral' };
}

/** Why the team's figures are missing, and what to do: the module's real state. */
function TeamViewMissing({ person }: { person: Person }) {
  const state = stateOf(person.modules, 'teamview');
  if (state?.available) {
    return (
      <Empty title="Your role does not include the team view" icon={Users} compact headingLevel={3}>
        Headcount, payroll and compa-ratio come from the team view. An admin can add it to your role.
      </Empty>
    );
  }
  return (
    <Empty
      title="The team view is not switched on yet"
      icon={Users}
      compact
      headingLevel={3}
      action={
        person.isInternalAdmin ? (
          <Link href="/internal" className="button primary">
            Switch on the team view
          </Link>
        ) : undefined
      }
    >
      Headcount, payroll in your company currency and compa-ratio to the market appear here once Paybench support switches on the team view for your company
      {person.isInternalAdmin ? '.' : ': ask your Paybench contact.'}
    </Empty>
  );
}

/** Compa-ratio to market: how many people fall in each band, drawn in the base-salary colour, with the numbers as a table. */
function CompaRatioDistribution() {
  const { data, error } = useQuery('/api/team/analytics/compa-ratio');
  const report = data?.data;
  return (
    <Section
      title="Compa-ratio distribution"
      id="home-compa-ratio"
      actions={
        <Link href="/team/analytics" className="button small">
          Open analytics
        </Link>
      }
    >
      {error ? (
        <p role="alert">{errorMessage(error)}</p>
      ) : !report ? (
        <SkeletonChart height={200} />
      ) : report.compared === 0 ? (
        <Empty title="No one is priced against the market yet" icon={ChartColumn} compact headingLevel={3}>
          People are priced once they have a base salary, a job family, a level and a location the market covers.
        </Empty>
      ) : (
        <>
          <p className="muted small-text">
            Base salary ÷ the market median for each person’s family, level and location: {formatNumber(report.compared)} priced, {formatNumber(report.insufficientData)} with insufficient market data.
          </p>
          <BarList
            title="People by compa-ratio"
            bars={report.bands.map((band) => ({ label: band.label, value: band.count, colour: colourOf('base') }))}
            categoryLabel="Compa-ratio"
            valueLabel="People"
            unit={{ kind: 'count' }}
          />
        </>
      )}
    </Section>
  );
}

/** Headcount, payroll and compa-ratio of everyone the person may see: the company, or their reports. */
function TeamFigures({ person, kind }: { person: Person; kind: DashboardKind }) {
  const teamView = stateOf(person.modules, 'teamview');
  const { data, error } = useQuery('/api/team/employees/overview', teamView?.authorized ? {} : null);
  if (!teamView?.authorized) return <TeamViewMissing person={person} />;
  if (error) return <p role="alert">{errorMessage(error)}</p>;
  const overview = data?.data;
  if (!overview) return <SkeletonStats count={4} />;
  if (overview.headcount === 0) {
    return (
      <Empty
        title={kind === 'company' ? 'No employees yet' : 'No one reports to you yet'}
        icon={Users}
        compact
        headingLevel={3}
        action={
          kind === 'company' && stateOf(person.modules, 'integrations')?.authorized ? (
            <Link href="/integrations" className="button primary">
              Import people
            </Link>
          ) : undefined
        }
      >
        {kind === 'company' ? 'Import your people from a file or connect your HR system; headcount and payroll follow.' : 'Your reports appear here once your company’s people data names you as their manager.'}
      </Empty>
    );
  }
  const { payroll, compaRatio } = overview;
  return (
    <>
      <StatGrid label={kind === 'company' ? 'Company figures' : 'Figures of the people you lead'}>
        <StatCard
          label={kind === 'company' ? 'Headcount' : 'People you lead'}
          value={formatNumber(overview.headcount)}
          hint={`${overview.byDepartment.length} department${overview.byDepartment.length === 1 ? '' : 's'} · ${overview.byLocation.length} location${overview.byLocation.length === 1 ? '' : 's'}`}
          href="/team/employees"
          icon={Users}
          testId="dashboard-headcount"
        />
        {payroll && (
          <StatCard
            label="Annual payroll"
            value={formatMoney(payroll.annualBase, { compact: true })}
            hint={`Base salary in ${payroll.annualBase.currency}, ${formatNumber(payroll.employees)} people with pay on record`}
            href="/team"
            swatch={colourOf('base')}
            testId="dashboard-payroll"
          />
        )}
        {payroll && (
          <StatCard
            label="Annual total cash"
            value={formatMoney(payroll.annualTotalCash, { compact: true })}
            hint="Base, bonus targets, variable pay and commission"
            href="/team"
            swatch={colourOf('total_cash')}
          />
        )}
        {compaRatio && (
          <StatCard
            label="Average compa-ratio"
            value={compaRatio.average === null ? '—' : compaRatio.average.toFixed(2)}
            hint={`${formatNumber(compaRatio.compared)} priced against market release ${compaRatio.releaseVersion}`}
            href="/team/analytics"
          />
        )}
      </StatGrid>
      {payroll && payroll.unconverted.length > 0 && <p className="muted small-text">Left out of the payroll, with no reference rate: {payroll.unconverted.join(', ')}.</p>}
    </>
  );
}

/** People out of band: from the live band set's evaluation, or why there is no figure yet. */
function useOutOfBand(authorized: boolean): { text: string; state: { text: string; tone: Tone }; link?: { href: string; label: string } } | undefined {
  const sets = useQuery('/api/bands/band-sets', authorized ? {} : null);
  const live = sets.data?.data.find((set) => set.status === 'live');
  const evaluation = useQuery('/api/bands/band-sets/{bandSetId}/evaluation', live ? { params: { path: { bandSetId: live.id } } } : null);
  if (!authorized) return undefined;
  if (sets.error || evaluation.error) return { text: errorMessage(sets.error ?? evaluation.error), state: { text: 'Not available', tone: 'danger' } };
  if (!sets.data) return { text: 'Looking for your live band set…', state: { text: 'Loading', tone: 'neutral' } };
  if (!live) {
    return sets.data.data.length
      ? { text: 'A band set is drafted but none is live yet, so nobody is measured against one.', state: { text: 'Not live', tone: 'warning' }, link: { href: '/bands', label: 'Publish a band set' } }
      : { text: 'Salary bands are not set up yet, so nobody can be measured against one.', state: { text: 'Not set up', tone: 'warning' }, link: { href: '/bands', label: 'Set up salary bands' } };
  }
  const employees = evaluation.data?.data.employees;
  if (!employees) return { text: `Measuring everyone against ${live.name}…`, state: { text: 'Loading', tone: 'neutral' } };
  const below = employees.filter((employee) => employee.position === 'below').length;
  const above = employees.filter((employee) => employee.position === 'above').length;
  return {
    text: `${formatNumber(below)} below and ${formatNumber(above)} above their band in ${live.name}, of ${formatNumber(employees.length)} in bands.`,
    state: below + above > 0 ? { text: `${formatNumber(below + above)} out of band`, tone: 'warning' } : { text: 'Everyone in band', tone: 'success' },
    link: { href: '/bands', label: 'Open salary bands' },
  };
}

/** Salary bands, merit cycles and insights: what the programmes say today, in their modules' real state. */
function Programmes({ person }: { person: Person }) {
  const bands = stateOf(person.modules, 'bands');
  const outOfBand = useOutOfBand(bands?.authorized ?? false);
  const planning = stateOf(person.modules, 'compplanning');
  const cards: { key: string; title: string; icon: ReactNode; text: string; link?: { href: string; label: string }; state: { text: string; tone: Tone } }[] = [
    {
      key: 'bands',
      title: 'People out of band',
      icon: <Layers size={18} aria-hidden="true" />,
      text: outOfBand?.text ?? (bands?.available ? 'Measured against your salary bands once your role includes them.' : 'Measured against your salary bands once the bands module is on.'),
      link: outOfBand?.link ?? { href: '/bands', label: bands?.available ? 'Ask for salary bands' : 'Why salary bands are off' },
      state: outOfBand?.state ?? stateText(bands),
    },
    {
      key: 'cycle',
      title: 'Merit cycle',
      icon: <CalendarClock size={18} aria-hidden="true" />,
      text: planning?.authorized ? 'No cycle is open. A cycle’s progress and budget show here while it runs.' : 'A merit cycle’s progress and budget show here once compensation planning is on.',
      link: planning?.authorized ? { href: '/compensationplanning', label: 'Plan a merit cycle' } : { href: '/compensationplanning', label: planning?.available ? 'Ask for compensation planning' : 'Why planning is off' },
      state: planning?.authorized ? { text: 'No open cycle', tone: 'neutral' } : stateText(planning),
    },
    {
      key: 'insights',
      title: 'Newest insights',
      icon: <Sparkles size={18} aria-hidden="true" />,
      text: 'The data lab lists insights computed from your people, bands, merit cycles and the market, for the people you may see.',
      link: { href: '/paybench-data-lab', label: 'Open the data lab' },
      state: { text: 'Data lab', tone: 'info' },
    },
  ];
  return (
    <ul className="programme-list" aria-label="Programmes">
      {cards.map((card) => (
        <li key={card.key} className="programme">
          <div className="programme-head">
            <span className="programme-icon">{card.icon}</span>
            <h3>{card.title}</h3>
            <Badge tone={card.state.tone}>{card.state.text}</Badge>
          </div>
          <p className="muted small-text">{card.text}</p>
          {card.link && (
            <Link href={card.link.href} className="button small">
              {card.link.label}
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Letters and offers waiting for an employee, as their modules stand. */
function Waiting({ person }: { person: Person }) {
  const letters = stateOf(person.modules, 'rewardLetters');
  const offers = stateOf(person.modules, 'visualOfferLetter');
  const lines = [
    { key: 'letters', title: 'Reward letters', state: letters, on: 'Your reward letter appears here when a merit cycle ends.' },
    { key: 'offers', title: 'Offers', state: offers, on: 'An offer made to you appears here.' },
  ];
  return (
    <Section title="Letters and offers" id="home-waiting">
      <ul className="programme-list" aria-label="Letters and offers">
        {lines.map((line) => {
          const state = line.state?.available ? { text: 'Nothing waiting', tone: 'neutral' as const } : stateText(line.state);
          return (
            <li key={line.key} className="programme">
              <div className="programme-head">
                <span className="programme-icon">
                  <Mail size={18} aria-hidden="true" />
                </span>
                <h3>{line.title}</h3>
                <Badge tone={state.tone}>{state.text}</Badge>
              </div>
              <p className="muted small-text">{line.state?.available ? line.on : 'Not used by your company yet.'}</p>
              {line.key === 'letters' && line.state?.available && (
                <Link href="/rewardletters" className="button small">
                  Your reward letters
                </Link>
              )}
            </li>
          );
        })}
      </ul>
    </Section>
  );
}

/** Every module of the contract with its state; each card links to the module's address, which opens it or says why not. */
function ModuleTiles({ person, onlyAuthorized }: { person: Person; onlyAuthorized: boolean }) {
  const modules = onlyAuthorized ? person.modules.filter((entry) => entry.authorized) : person.modules;
  if (!modules.length) return null;
  return (
    <Section title="Your modules" id="home-modules">
      <ul className="module-tiles" aria-label="Modules">
        {modules.map((entry) => {
          const tile = homeTiles.get(entry.module);
          const Icon = tile?.icon;
          const state = stateText(entry);
          return (
            <li key={entry.module} className={entry.authorized ? 'module-tile on' : 'module-tile off'} data-module={entry.module}>
              <div className="module-tile-head">
                {Icon && (
                  <span className="programme-icon">
                    <Icon size={18} aria-hidden="true" />
                  </span>
                )}
                <h3>
                  {tile ? (
                    <Link href={tile.href} className="module-link">
                      {tile.title}
                    </Link>
                  ) : (
                    entry.module
                  )}
                </h3>
              </div>
              {tile && <p className="muted small-text">{tile.description}</p>}
              <Badge tone={state.tone} className="module-state">
                {state.text}
              </Badge>
            </li>
          );
        })}
      </ul>
    </Section>
  );
}

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
