import { type ComponentType, type ReactNode, Suspense } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { NotFoundScreen } from '../features/entry/EntryScreens';
import { FullSizeSpinner } from '../ui/Spinner';
import { useAnalytics } from './analytics';
import { RequireModule, RequireSession } from './Guard';
import { Layout } from './Layout';
import { routes } from './registry';
import { type ScreenRoute, isRedirect } from './webModule';

function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<FullSizeSpinner loading />}>{children}</Suspense>;
}

/** A route's screen in its frame (see `ScreenRoute`); made once per route, so screens keep their state. */
function framed(route: ScreenRoute): ComponentType {
  const Screen = route.screen;
  if (route.frame === 'bare') {
    return function BareScreen() {
      return (
        <Loading>
          <Screen />
        </Loading>
      );
    };
  }
  if (route.frame === 'companyless') {
    return function CompanylessScreen() {
      return (
        <RequireSession allowWithoutCompany>
          <Loading>
            <Screen />
          </Loading>
        </RequireSession>
      );
    };
  }
  const module = route.module;
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

/**
 * Every route of every web module (`features/<area>/module.tsx`), matched exactly; a path no
 * module declares is the not-found screen.
 */
const moduleRoutes = routes.map((route) =>
  isRedirect(route) ? (
    <Route key={route.path} path={route.path}>
      <Redirect to={route.redirect} replace />
    </Route>
  ) : (
    <Route key={route.path} path={route.path} component={framed(route)} />
  ),
);

export function App() {
  useAnalytics();
  return (
    <Switch>
      {moduleRoutes}
      <Route component={NotFoundScreen} />
    </Switch>
  );
}
