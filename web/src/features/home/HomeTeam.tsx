import { ChartColumn, Users } from 'lucide-react';
import { Link } from 'wouter';
import { errorMessage, useQuery } from '../../api/client';
import { BarList, colourOf } from '../../ui/charts';
import { formatMoney, formatNumber } from '../../ui/format';
import { Section } from '../../ui/Page';
import { SkeletonChart, SkeletonStats } from '../../ui/Skeleton';
import { StatCard, StatGrid } from '../../ui/StatCard';
import { Empty } from '../../ui/States';
import { type Person, type DashboardKind, stateOf } from './homeState';

// The home screen's team figures: head count, pay against the bands, and how to get the team view.

/** Why the team's figures are missing, and what to do: the module's real state. */
export function TeamViewMissing({ person }: { person: Person }) {
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
export function CompaRatioDistribution() {
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
export function TeamFigures({ person, kind }: { person: Person; kind: DashboardKind }) {
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
