import { Suspense, lazy } from 'react';
import { Link, useParams } from 'wouter';
import { usePerson } from '../../app/Guard';
import { retryImport } from '../../app/retryImport';
import { can } from '../settings/permissions';
import { ComingPanel, Tabs } from '../../ui/Panels';

const OfferInsightsPanel = lazy(() => retryImport(() => import('../benchmarking/OfferInsights')).then((m) => ({ default: m.OfferInsightsPanel })));

/** Screens of modules that are not built yet: module gating decides who gets here, this says what is coming. */

/** /offers: the offer builder is coming; what the market pays a role, and where offers land, is here now. */
export function OffersScreen() {
  const person = usePerson().data?.data;
  return (
    <>
      <ComingPanel
        title="Offers"
        description="Build a candidate’s package — title, level, location, start date, base, bonus and equity — checked against the band, and send a visual offer letter with an equity explainer, vesting and a valuation slider."
      />
      {can(person, 'benchmarking', 'view') && (
        <Suspense fallback={null}>
          <OfferInsightsPanel />
        </Suspense>
      )}
    </>
  );
}

export function BandsScreen() {
  return (
    <ComingPanel
      title="Salary bands"
      description="Band sets, grades, jobs and pay zones, priced against market data and surveys, with autosmoothing across levels."
    >
      <p>
        Until then, the <Link href="/benchmarkingsurvey/data-explorer">data explorer</Link> gives the market percentiles bands are built from.
      </p>
    </ComingPanel>
  );
}

export function CompensationPlanningScreen() {
  return (
    <ComingPanel
      title="Compensation planning"
      description="Merit cycles with eligibility rules, budgets, planner worksheets, approval chains, planning windows and reward letters."
    />
  );
}

export function TotalRewardsScreen() {
  return (
    <ComingPanel
      title="Total rewards"
      description="Each employee’s statement of everything they receive — base, bonus, variable pay, equity and benefits — readable on a phone, also offline."
    />
  );
}

export function DataLabScreen() {
  return (
    <ComingPanel
      title="Paybench data lab"
      description="Insights, bookmarks and pulse surveys, and an insights agent that answers questions about your pay data and the market."
    />
  );
}

export function WorkflowsScreen() {
  return <ComingPanel title="Workflows" description="Approval and review workflows for offers, bands and merit cycles." />;
}

const COMMUNICATE_SECTIONS: { path: string; label: string; description: string }[] = [
  { path: 'overview', label: 'Overview', description: 'The first page of the statement.' },
  { path: 'about-us', label: 'About us', description: 'Who the company is, in its own words.' },
  { path: 'appearance', label: 'Appearance', description: 'Logo, colours and fonts of the statement.' },
  { path: 'timeline', label: 'Timeline', description: 'An employee’s history at the company.' },
  { path: 'compensation', label: 'Compensation', description: 'How total compensation is explained.' },
  { path: 'salary', label: 'Salary', description: 'Base salary and its history.' },
  { path: 'equity', label: 'Equity', description: 'Grants, vesting and what they may be worth.' },
  { path: 'bonus', label: 'Bonus', description: 'Annual and other bonuses.' },
  { path: 'variable-pay', label: 'Variable pay', description: 'Commission and other variable pay.' },
  { path: 'future-grants', label: 'Future grants', description: 'Refreshers and promotion grants to expect.' },
  { path: 'future-modeling', label: 'Future modeling', description: 'What equity could be worth at other valuations.' },
  { path: 'benefits', label: 'Benefits', description: 'Benefits, and which groups of employees receive which.' },
  { path: 'learning-hub', label: 'Learning hub', description: 'Articles that explain pay and equity.' },
];

const SUBSECTIONS: Record<string, string> = {
  'benefits/benefits': 'Benefits',
  'benefits/user-groups': 'User groups',
  'future-modeling/comp-simulator': 'Compensation simulator',
};

/** /settings/communicate and its sub-paths: configuring what total-rewards statements show. */
export function CommunicateScreen() {
  const params = useParams<{ section?: string; sub?: string }>();
  const section = COMMUNICATE_SECTIONS.find((entry) => entry.path === params.section);
  const sub = params.section && params.sub ? SUBSECTIONS[`${params.section}/${params.sub}`] : undefined;
  const title = section ? `Communicate: ${section.label}${sub ? ` — ${sub}` : ''}` : 'Communicate';
  return (
    <>
      <Tabs label="Communicate sections" tabs={COMMUNICATE_SECTIONS.map((entry) => ({ href: `/settings/communicate/${entry.path}`, label: entry.label }))} />
      <ComingPanel
        title={title}
        description={section ? `${section.description} Part of configuring total-rewards statements.` : 'Configure what employees see in their total-rewards statements, section by section.'}
      />
    </>
  );
}
