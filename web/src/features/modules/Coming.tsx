import { ComingPanel } from '../../ui/Panels';

/** Screens of modules that are not built yet: module gating decides who gets here, this says what is coming. */

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
