import { type ComponentType, type ReactNode, Suspense, lazy } from 'react';
import { Redirect, Route } from 'wouter';
import { FullSizeSpinner } from '../ui/Spinner';
import { type ModuleName, RequireModule, RequireSession } from './Guard';
import { Layout } from './Layout';
import { retryImport } from './retryImport';

/** A lazily loaded screen: its code arrives with the route (retried 5 × 1 s, then one reload). */
function screen<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) {
  return lazy(() => retryImport(load).then((module) => ({ default: module[name] as ComponentType })));
}

const benchmarking = () => import('../features/benchmarking/DataExplorer');
const DataExplorer = screen(benchmarking, 'DataExplorerScreen');
const FamilySearch = screen(() => import('../features/benchmarking/FamilySearch'), 'FamilySearchScreen');
const Results = screen(() => import('../features/benchmarking/Results'), 'ResultsScreen');
const Export = screen(() => import('../features/benchmarking/Export'), 'ExportScreen');
const Compare = screen(() => import('../features/benchmarking/Compare'), 'CompareScreen');
const modules = () => import('../features/benchmarking/Modules');
const LocationInsights = screen(modules, 'LocationInsightsScreen');
const EquityPractices = screen(modules, 'EquityPracticesScreen');
const LevelYourEmployees = screen(modules, 'LevelYourEmployeesScreen');
const Premium = screen(modules, 'PremiumScreen');
const Participation = screen(() => import('../features/benchmarking/Participation'), 'ParticipationScreen');
const shares = () => import('../features/benchmarking/Shares');
const SharedSlice = screen(shares, 'SharedSliceScreen');
const SharedExecutiveSlice = screen(shares, 'SharedExecutiveSliceScreen');
const MarketDataReports = screen(shares, 'MarketDataReportsScreen');

const composition = () => import('../features/composition/DataComposition');
const CompositionCompanies = screen(composition, 'CompositionCompaniesScreen');
const CompositionJobFamilies = screen(composition, 'CompositionJobFamiliesScreen');
const CompositionLocations = screen(composition, 'CompositionLocationsScreen');
const CompositionMarketing = screen(composition, 'CompositionMarketingScreen');

const demo = () => import('../features/demo/Demo');
const DemoJobCatalog = screen(demo, 'DemoJobCatalogScreen');
const DemoLocationDifferentials = screen(demo, 'DemoLocationDifferentialsScreen');
const DemoEquityPractices = screen(demo, 'DemoEquityPracticesScreen');
const DemoParticipants = screen(demo, 'DemoParticipantsScreen');

const downloads = () => import('../features/downloads/DownloadScreen');
const Download = screen(downloads, 'DownloadScreen');
const CompensationReportDownload = lazy(() => retryImport(downloads).then((m) => ({ default: () => <m.DownloadScreen kind="compensationReport" /> })));

const Internal = screen(() => import('../features/internal/Internal'), 'InternalScreen');

const integrations = () => import('../features/integrations/Integrations');
const Integrations = screen(integrations, 'IntegrationsScreen');
const SettingsIntegrations = lazy(() => retryImport(integrations).then((m) => ({ default: () => <m.IntegrationsScreen title="Integrations settings" /> })));
const Connections = screen(integrations, 'ConnectionsScreen');

const SettingsHome = screen(() => import('../features/settings/SettingsHome'), 'SettingsHomeScreen');
const CompanyInfo = screen(() => import('../features/settings/CompanyInfo'), 'CompanyInfoScreen');
const Notifications = screen(() => import('../features/settings/Notifications'), 'NotificationsScreen');

const coming = () => import('../features/modules/Coming');
const Offers = screen(coming, 'OffersScreen');
const Bands = screen(coming, 'BandsScreen');
const CompensationPlanning = screen(coming, 'CompensationPlanningScreen');
const TotalRewards = screen(coming, 'TotalRewardsScreen');
const DataLab = screen(coming, 'DataLabScreen');
const Workflows = screen(coming, 'WorkflowsScreen');
const Communicate = screen(coming, 'CommunicateScreen');

const journeys = () => import('../features/entry/Journeys');
const Onboarding = screen(journeys, 'OnboardingScreen');
const OnboardingUser = screen(journeys, 'OnboardingUserScreen');
const OnboardingCompany = screen(journeys, 'OnboardingCompanyScreen');
const Sso = screen(journeys, 'SsoScreen');
const IdpInitiated = screen(journeys, 'IdpInitiatedScreen');
const SelectOffer = screen(journeys, 'SelectOfferScreen');

function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<FullSizeSpinner loading />}>{children}</Suspense>;
}

/** A signed-in screen in the frame; with a module, only when the company has it and the person may use it. */
function signed(Screen: ComponentType, module?: ModuleName) {
  return function SignedScreen() {
    const body = (
      <Loading>
        <Screen />
      </Loading>
    );
    return (
      <RequireSession>
        <Layout>{module ? <RequireModule module={module}>{body}</RequireModule> : body}</Layout>
      </RequireSession>
    );
  };
}

function bare(Screen: ComponentType) {
  return function BareScreen() {
    return (
      <Loading>
        <Screen />
      </Loading>
    );
  };
}

/**
 * Every route of the spec beyond the shell's own (§2). The paths are matched exactly; a path of a
 * known area that is not listed falls through to the not-found screen.
 */
export const productRoutes = (
  <>
    <Route path="/benchmarkingsurvey">
      <Redirect to="/benchmarkingsurvey/data-explorer" replace />
    </Route>
    <Route path="/benchmarkingsurvey/data-explorer" component={signed(DataExplorer, 'benchmarking')} />
    <Route path="/benchmarkingsurvey/data-explorer/search" component={signed(FamilySearch, 'benchmarking')} />
    <Route path="/benchmarkingsurvey/data-explorer/results" component={signed(Results, 'benchmarking')} />
    <Route path="/benchmarkingsurvey/data-explorer/export" component={signed(Export, 'benchmarking')} />
    <Route path="/benchmarkingsurvey/compare" component={signed(Compare, 'benchmarking')} />
    <Route path="/benchmarkingsurvey/level-your-employees" component={signed(LevelYourEmployees, 'benchmarking')} />
    <Route path="/benchmarkingsurvey/location-insights" component={signed(LocationInsights, 'benchmarking')} />
    <Route path="/benchmarkingsurvey/equity-practices" component={signed(EquityPractices, 'benchmarking')} />
    <Route path="/benchmarkingsurvey/premium" component={signed(Premium, 'benchmarking')} />
    <Route path="/benchmarkingsurvey/participation" component={signed(Participation, 'benchmarking')} />

    <Route path="/benchmarking-demo">
      <Redirect to="/benchmarking-demo/job-catalog" replace />
    </Route>
    <Route path="/benchmarking-demo/job-catalog" component={signed(DemoJobCatalog)} />
    <Route path="/benchmarking-demo/location-differentials" component={signed(DemoLocationDifferentials)} />
    <Route path="/benchmarking-demo/equity-practices" component={signed(DemoEquityPractices)} />
    <Route path="/benchmarking-demo/participants-list" component={signed(DemoParticipants)} />

    <Route path="/datacomposition">
      <Redirect to="/datacomposition/companies" replace />
    </Route>
    <Route path="/datacomposition/companies" component={signed(CompositionCompanies, 'benchmarking')} />
    <Route path="/datacomposition/jobfamilies" component={signed(CompositionJobFamilies, 'benchmarking')} />
    <Route path="/datacomposition/locations" component={signed(CompositionLocations, 'benchmarking')} />
    <Route path="/datacomposition/marketingversion" component={signed(CompositionMarketing)} />

    <Route path="/shares/executive/:sliceId" component={signed(SharedExecutiveSlice)} />
    <Route path="/shares/:sliceId" component={signed(SharedSlice)} />
    <Route path="/market-data-reports" component={signed(MarketDataReports, 'benchmarking')} />

    <Route path="/downloads/:downloadId" component={signed(Download)} />
    <Route path="/compensation-report-download/:downloadId" component={signed(CompensationReportDownload)} />

    <Route path="/internal" component={signed(Internal)} />
    <Route path="/integrations" component={signed(Integrations, 'integrations')} />
    <Route path="/paybench-data-lab" component={signed(DataLab)} />

    <Route path="/offers" component={signed(Offers, 'visualOfferLetter')} />
    <Route path="/bands" component={signed(Bands, 'bands')} />
    <Route path="/compensationplanning" component={signed(CompensationPlanning, 'compplanning')} />
    <Route path="/compensationplanning/*" component={signed(CompensationPlanning, 'compplanning')} />
    <Route path="/totalrewards" component={signed(TotalRewards, 'totalRewards')} />
    <Route path="/totalrewards/*" component={signed(TotalRewards, 'totalRewards')} />

    <Route path="/settings" component={signed(SettingsHome)} />
    <Route path="/settings/company-info" component={signed(CompanyInfo, 'settings')} />
    <Route path="/settings/notifications" component={signed(Notifications)} />
    <Route path="/settings/integrations" component={signed(SettingsIntegrations, 'integrations')} />
    <Route path="/settings/connections" component={signed(Connections, 'integrations')} />
    <Route path="/settings/workflows" component={signed(Workflows, 'settings')} />
    <Route path="/settings/communicate" component={signed(Communicate, 'totalRewards')} />
    <Route path="/settings/communicate/:section" component={signed(Communicate, 'totalRewards')} />
    <Route path="/settings/communicate/:section/:sub" component={signed(Communicate, 'totalRewards')} />

    <Route path="/onboarding" component={signed(Onboarding)} />
    <Route path="/onboarding/user" component={signed(OnboardingUser)} />
    <Route path="/onboarding/company" component={signed(OnboardingCompany)} />
    <Route path="/onboarding/*" component={signed(Onboarding)} />
    <Route path="/select-offer">
      <RequireSession allowWithoutCompany>
        <Loading>
          <SelectOffer />
        </Loading>
      </RequireSession>
    </Route>
    <Route path="/auth/sso" component={bare(Sso)} />
    <Route path="/auth0/idp-initiated-callback" component={bare(IdpInitiated)} />
  </>
);
