import { type ComponentType, type LazyExoticComponent, Suspense, lazy } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { useSession } from '../auth/Session';
import { CallbackScreen, LoginScreen, LogoutScreen, NoAccessScreen, NotFoundScreen, UnverifiedScreen } from '../features/entry/EntryScreens';
import { FullSizeSpinner } from '../ui/Spinner';
import { type ModuleName, RequireModule, RequireSession } from './Guard';
import { Layout } from './Layout';
import { productRoutes } from './productRoutes';
import { retryImport } from './retryImport';

const Home = lazy(() => retryImport(() => import('../features/home/Home').then((m) => ({ default: m.Home }))));
const UsersScreen = lazy(() => retryImport(() => import('../features/settings/Users').then((m) => ({ default: m.UsersScreen }))));
const RolesScreen = lazy(() => retryImport(() => import('../features/settings/Users').then((m) => ({ default: m.RolesScreen }))));
const CreateCompanyScreen = lazy(() => retryImport(() => import('../features/entry/Onboarding').then((m) => ({ default: m.CreateCompanyScreen }))));
const TermsScreen = lazy(() => retryImport(() => import('../features/entry/Onboarding').then((m) => ({ default: m.TermsScreen }))));
const TeamOverviewScreen = lazy(() => retryImport(() => import('../features/team/Overview').then((m) => ({ default: m.TeamOverviewScreen }))));
const TeamEmployeesScreen = lazy(() => retryImport(() => import('../features/team/Employees').then((m) => ({ default: m.TeamEmployeesScreen }))));
const TeamAnalyticsScreen = lazy(() => retryImport(() => import('../features/team/Analytics').then((m) => ({ default: m.TeamAnalyticsScreen }))));
const TeamPlaygroundScreen = lazy(() => retryImport(() => import('../features/team/Playground').then((m) => ({ default: m.TeamPlaygroundScreen }))));
const teamSettings = () => retryImport(() => import('../features/team/Settings'));
const TeamSettingsScreen = lazy(() => teamSettings().then((m) => ({ default: m.TeamSettingsScreen })));
const TeamColumnsSettingsScreen = lazy(() => teamSettings().then((m) => ({ default: m.TeamColumnsSettingsScreen })));
const TeamCompTimelineSettingsScreen = lazy(() => teamSettings().then((m) => ({ default: m.TeamCompTimelineSettingsScreen })));
const TeamEquityDetailsSettingsScreen = lazy(() => teamSettings().then((m) => ({ default: m.TeamEquityDetailsSettingsScreen })));
const BulkDownloadEmployeeCompScreen = lazy(() => retryImport(() => import('../features/downloads/DownloadScreen').then((m) => ({ default: () => <m.DownloadScreen kind="employeeComp" /> }))));

function Signed({ screen: Screen, module }: { screen: LazyExoticComponent<ComponentType>; module?: ModuleName }) {
  const body = (
    <Suspense fallback={<FullSizeSpinner loading />}>
      <Screen />
    </Suspense>
  );
  return (
    <RequireSession>
      <Layout>{module ? <RequireModule module={module}>{body}</RequireModule> : body}</Layout>
    </RequireSession>
  );
}

function Root() {
  const { user, isAuthenticating } = useSession();
  if (isAuthenticating) return <FullSizeSpinner loading />;
  return <Redirect to={user ? '/home' : '/login'} replace />;
}

export function App() {
  return (
    <Switch>
      <Route path="/" component={Root} />
      <Route path="/login" component={LoginScreen} />
      <Route path="/signup" component={LoginScreen} />
      <Route path="/auth0/callback" component={CallbackScreen} />
      <Route path="/logout" component={LogoutScreen} />
      <Route path="/unverified" component={UnverifiedScreen} />
      <Route path="/no-access" component={NoAccessScreen} />
      <Route path="/benchmarking-no-access" component={NoAccessScreen} />
      <Route path="/not-found" component={NotFoundScreen} />
      <Route path="/create-company">
        <RequireSession allowWithoutCompany>
          <Suspense fallback={<FullSizeSpinner loading />}>
            <CreateCompanyScreen />
          </Suspense>
        </RequireSession>
      </Route>
      <Route path="/create-account">
        <Redirect to="/create-company" replace />
      </Route>
      <Route path="/acknowledge-terms-of-use">
        <Suspense fallback={<FullSizeSpinner loading />}>
          <TermsScreen />
        </Suspense>
      </Route>
      <Route path="/home">
        <Signed screen={Home} />
      </Route>
      <Route path="/settings/users">
        <Signed screen={UsersScreen} module="settings" />
      </Route>
      <Route path="/settings/roles">
        <Signed screen={RolesScreen} module="settings" />
      </Route>
      <Route path="/team">
        <Signed screen={TeamOverviewScreen} module="teamview" />
      </Route>
      <Route path="/team/employees">
        <Signed screen={TeamEmployeesScreen} module="teamview" />
      </Route>
      <Route path="/team/analytics">
        <Signed screen={TeamAnalyticsScreen} module="teamview" />
      </Route>
      <Route path="/team/analytics/playground">
        <Signed screen={TeamPlaygroundScreen} module="teamview" />
      </Route>
      <Route path="/team/settings">
        <Signed screen={TeamSettingsScreen} module="teamview" />
      </Route>
      <Route path="/team/settings/columns">
        <Signed screen={TeamColumnsSettingsScreen} module="teamview" />
      </Route>
      <Route path="/team/settings/comp-timeline">
        <Signed screen={TeamCompTimelineSettingsScreen} module="teamview" />
      </Route>
      <Route path="/team/settings/equity-details">
        <Signed screen={TeamEquityDetailsSettingsScreen} module="teamview" />
      </Route>
      <Route path="/bulk-download-employee-comp/:downloadId">
        <Signed screen={BulkDownloadEmployeeCompScreen} />
      </Route>
      {productRoutes}
      <Route component={NotFoundScreen} />
    </Switch>
  );
}
