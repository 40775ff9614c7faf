import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { Route, Router, Switch } from 'wouter';

// The registry loads every module.tsx, and with them the shell's eager screens; their sign-in client
// reads the browser's address when it loads, which a unit test has none of.
vi.mock('../src/auth/oidc', () => ({
  userManager: { getUser: async () => null, events: { addUserLoaded() {}, addUserUnloaded() {}, removeUserLoaded() {}, removeUserUnloaded() {} } },
  accessToken: async () => undefined,
  SESSION_EXPIRED_REASON: 'paybench.sessionExpiredReason',
  VIEW_AS_KEY: 'paybench.viewAs',
  COMPANY_AS_KEY: 'paybench.companyAs',
}));

const { homeTiles, modules, navigation, registryProblems, routes } = await import('../src/app/registry');
const { isNavLink, isRedirect } = await import('../src/app/webModule');

const FEATURES = path.resolve(import.meta.dirname, '..', 'src', 'features');

/**
 * How each route was framed and gated before modules registered themselves: `frame module`, or
 * `→ target`. A new module adds routes of its own; these must stay as they are.
 */
const EXPECTED_ROUTES: Record<string, string> = {
  '/': 'bare',
  '/login': 'bare',
  '/signup': 'bare',
  '/auth0/callback': 'bare',
  '/logout': 'bare',
  '/unverified': 'bare',
  '/no-access': 'bare',
  '/benchmarking-no-access': 'bare',
  '/not-found': 'bare',
  '/create-company': 'companyless',
  '/create-account': 'companyless',
  '/acknowledge-terms-of-use': 'bare',
  '/home': 'signed',
  '/settings/users': 'signed settings',
  '/settings/roles': 'signed settings',
  '/team': 'signed teamview',
  '/team/employees': 'signed teamview',
  '/team/analytics': 'signed teamview',
  '/team/analytics/playground': 'signed teamview',
  '/team/settings': 'signed teamview',
  '/team/settings/columns': 'signed teamview',
  '/team/settings/comp-timeline': 'signed teamview',
  '/team/settings/equity-details': 'signed teamview',
  '/bulk-download-employee-comp/:downloadId': 'signed',
  '/benchmarkingsurvey': '→ /benchmarkingsurvey/data-explorer',
  '/benchmarkingsurvey/data-explorer': 'signed benchmarking',
  '/benchmarkingsurvey/data-explorer/search': 'signed benchmarking',
  '/benchmarkingsurvey/data-explorer/results': 'signed benchmarking',
  '/benchmarkingsurvey/data-explorer/export': 'signed benchmarking',
  '/benchmarkingsurvey/compare': 'signed benchmarking',
  '/benchmarkingsurvey/level-your-employees': 'signed benchmarking',
  '/benchmarkingsurvey/location-insights': 'signed benchmarking',
  '/benchmarkingsurvey/equity-practices': 'signed benchmarking',
  '/benchmarkingsurvey/premium': 'signed benchmarking',
  '/benchmarkingsurvey/participation': 'signed benchmarking',
  '/benchmarking-demo': '→ /benchmarking-demo/job-catalog',
  '/benchmarking-demo/job-catalog': 'signed',
  '/benchmarking-demo/location-differentials': 'signed',
  '/benchmarking-demo/equity-practices': 'signed',
  '/benchmarking-demo/participants-list': 'signed',
  '/datacomposition': '→ /datacomposition/companies',
  '/datacomposition/companies': 'signed benchmarking',
  '/datacomposition/jobfamilies': 'signed benchmarking',
  '/datacomposition/locations': 'signed benchmarking',
  '/datacomposition/marketingversion': 'signed',
  '/collaborator/:collaboratorToken': 'bare',
  '/shares/executive/:sliceId': 'signed',
  '/shares/:sliceId': 'signed',
  '/market-data-reports': 'signed benchmarking',
  '/downloads/:downloadId': 'signed',
  '/compensation-report-download/:downloadId': 'signed',
  '/internal': 'signed',
  '/integrations': 'signed integrations',
  '/paybench-data-lab': 'signed',
  '/offers': 'signed visualOfferLetter',
  '/bands': 'signed bands',
  '/compensationplanning': 'signed compplanning',
  '/compensationplanning/*': 'signed compplanning',
  '/totalrewards': 'signed totalRewards',
  '/totalrewards/*': 'signed totalRewards',
  '/settings': 'signed',
  '/settings/company-info': 'signed settings',
  '/settings/notifications': 'signed',
  '/settings/integrations': 'signed integrations',
  '/settings/connections': 'signed integrations',
  '/settings/workflows': 'signed settings',
  '/settings/communicate': 'signed totalRewards',
  '/settings/communicate/:section': 'signed totalRewards',
  '/settings/communicate/:section/:sub': 'signed totalRewards',
  '/onboarding': 'signed',
  '/onboarding/user': 'signed',
  '/onboarding/company': 'signed',
  '/onboarding/*': 'signed',
  '/select-offer': 'companyless',
  '/auth/sso': 'bare',
  '/auth0/idp-initiated-callback': 'bare',
};

/** The side menu as it was written by hand: label, link, and who sees it (a new module may add links between). */
const EXPECTED_NAV = [
  ['Home', '/home', ''],
  ['Market data', '/benchmarkingsurvey/data-explorer', 'benchmarking'],
  ['Offers', '/offers', 'visualOfferLetter'],
  ['Salary bands', '/bands', 'bands'],
  ['Planning', '/compensationplanning', 'compplanning'],
  ['Total rewards', '/totalrewards', 'totalRewards'],
  ['Integrations', '/integrations', 'integrations'],
  ['Team', '/team', 'teamview'],
  ['Users', '/settings/users', 'settings'],
  ['Roles', '/settings/roles', 'settings'],
  ['Settings', '/settings', ''],
  ['Internal', '/internal', 'internal admins'],
];

const EXPECTED_TILES = {
  benchmarking: 'Market data',
  integrations: 'Integrations',
  settings: 'Settings',
  compplanning: 'Compensation planning',
  rewardLetters: 'Reward letters',
  teamview: 'Team',
  bands: 'Salary bands',
  visualOfferLetter: 'Offers',
  totalRewards: 'Total rewards',
};

/** The pattern wouter's Switch picks for a location, given the registered routes in their order. */
function matched(location: string): string {
  const children = routes.map((route) => createElement(Route, { key: route.path, path: route.path }, route.path));
  const notFound = createElement(Route, { key: '*' }, 'not found');
  return renderToString(createElement(Router, { ssrPath: location, children: createElement(Switch, { children: [...children, notFound] }) }));
}

describe('web modules, registered by folder', () => {
  it('collects a module.tsx from every feature folder that has one, and nothing twice', () => {
    const folders = readdirSync(FEATURES).filter((name) => existsSync(path.join(FEATURES, name, 'module.tsx')));
    expect(modules.map((entry) => entry.area)).toEqual([...folders].sort());
    expect(modules.map((entry) => entry.area)).toEqual(
      expect.arrayContaining(['benchmarking', 'composition', 'demo', 'downloads', 'entry', 'home', 'integrations', 'internal', 'jobs', 'settings', 'team']),
    );
    expect(registryProblems()).toEqual([]);
  });

  it('gives every route exactly once, and every route the app had framed and gated as before', () => {
    const counts = new Map<string, number>();
    for (const route of routes) counts.set(route.path, (counts.get(route.path) ?? 0) + 1);
    expect([...counts.entries()].filter(([, count]) => count !== 1)).toEqual([]);
    const described = Object.fromEntries(
      routes.map((route) => [
        route.path,
        isRedirect(route) ? `→ ${route.redirect}` : [route.frame ?? 'signed', route.frame === undefined || route.frame === 'signed' ? route.module : undefined].filter(Boolean).join(' '),
      ]),
    );
    expect(described).toMatchObject(EXPECTED_ROUTES);
  });

  it('lets no route hide another: each path reaches its own route, and an unknown one falls through', () => {
    const shadowed = routes
      .map((route) => route.path)
      .filter((pattern) => matched(pattern.replace(/:(\w+)/g, 'some-$1').replace('*', 'deeper')) !== pattern);
    expect(shadowed).toEqual([]);
    expect(matched('/benchmarkingsurvey/no-such-screen')).toBe('not found');
  });

  it('builds the side menu in the order, with the labels and gates it had, and the jobs and help buttons after the links', () => {
    const known = new Set(EXPECTED_NAV.map(([, href]) => href));
    const links = navigation
      .filter(isNavLink)
      .filter((entry) => known.has(entry.href))
      .map((entry) => [entry.label, entry.href, entry.internalOnly ? 'internal admins' : (entry.module ?? '')]);
    expect(links).toEqual(EXPECTED_NAV);
    expect(navigation.slice(-2)).toMatchObject([
      { key: 'background-jobs', area: 'jobs' },
      { key: 'help-desk', area: 'helpdesk' },
    ]);
  });

  it('has a home tile for every module the contract names, from the module that owns it', () => {
    expect(Object.fromEntries([...homeTiles.values()].map((tile) => [tile.module, tile.title]))).toMatchObject(EXPECTED_TILES);
    expect(homeTiles.get('teamview')?.description).toBe('Your employees, their pay and how it compares.');
  });
});
