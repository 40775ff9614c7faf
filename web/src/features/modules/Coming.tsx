import { Suspense, lazy } from 'react';
import { usePerson } from '../../app/Guard';
import { retryImport } from '../../app/retryImport';
import { can } from '../settings/permissions';
import { ComingPanel } from '../../ui/Panels';

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
