import { ChartColumn } from 'lucide-react';
import { defineModule, lazyScreen } from '../../app/webModule';

const explorer = () => import('./DataExplorer');
const modules = () => import('./Modules');
const shares = () => import('./Shares');

/** Market data: the data explorer and its steps, compare, insights, participation, premium, reports and shared slices. */
export default defineModule({
  routes: [
    { path: '/benchmarkingsurvey', redirect: '/benchmarkingsurvey/data-explorer' },
    { path: '/benchmarkingsurvey/data-explorer', screen: lazyScreen(explorer, (m) => m.DataExplorerScreen), module: 'benchmarking' },
    { path: '/benchmarkingsurvey/data-explorer/search', screen: lazyScreen(() => import('./FamilySearch'), (m) => m.FamilySearchScreen), module: 'benchmarking' },
    { path: '/benchmarkingsurvey/data-explorer/results', screen: lazyScreen(() => import('./Results'), (m) => m.ResultsScreen), module: 'benchmarking' },
    { path: '/benchmarkingsurvey/data-explorer/export', screen: lazyScreen(() => import('./Export'), (m) => m.ExportScreen), module: 'benchmarking' },
    { path: '/benchmarkingsurvey/executive-compensation', screen: lazyScreen(() => import('./ExecutiveCompensation'), (m) => m.ExecutiveCompensationScreen), module: 'benchmarking' },
    { path: '/benchmarkingsurvey/compare', screen: lazyScreen(() => import('./Compare'), (m) => m.CompareScreen), module: 'benchmarking' },
    { path: '/benchmarkingsurvey/level-your-employees', screen: lazyScreen(() => import('./LevelYourEmployees'), (m) => m.LevelYourEmployeesScreen), module: 'benchmarking' },
    { path: '/benchmarkingsurvey/location-insights', screen: lazyScreen(modules, (m) => m.LocationInsightsScreen), module: 'benchmarking' },
    { path: '/benchmarkingsurvey/equity-practices', screen: lazyScreen(modules, (m) => m.EquityPracticesScreen), module: 'benchmarking' },
    { path: '/benchmarkingsurvey/premium', screen: lazyScreen(() => import('./Premium'), (m) => m.PremiumScreen), module: 'benchmarking' },
    { path: '/benchmarkingsurvey/participation', screen: lazyScreen(() => import('./Participation'), (m) => m.ParticipationScreen), module: 'benchmarking' },
    { path: '/collaborator/:collaboratorToken', screen: lazyScreen(() => import('./CollaboratorView'), (m) => m.CollaboratorSliceScreen), frame: 'bare' },
    { path: '/shares/executive/:sliceId', screen: lazyScreen(shares, (m) => m.SharedExecutiveSliceScreen) },
    { path: '/shares/:sliceId', screen: lazyScreen(shares, (m) => m.SharedSliceScreen) },
    { path: '/market-data-reports', screen: lazyScreen(shares, (m) => m.MarketDataReportsScreen), module: 'benchmarking' },
  ],
  nav: [{ href: '/benchmarkingsurvey/data-explorer', label: 'Market data', order: 20, module: 'benchmarking', icon: ChartColumn }],
  tiles: [{ module: 'benchmarking', title: 'Market data', description: 'Benchmark roles against the market by family, level and location.', href: '/benchmarkingsurvey/data-explorer', icon: ChartColumn }],
});
