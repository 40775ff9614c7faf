import { ClipboardList } from 'lucide-react';
import { defineModule, lazyScreen } from '../../app/webModule';

const cycle = () => import('./Cycle');

/** Compensation planning: merit cycles (setup, worksheets, approvals, dashboard, closing and the payroll file). */
export default defineModule({
  routes: [
    { path: '/compensationplanning', screen: lazyScreen(() => import('./Cycles'), (m) => m.CyclesScreen), module: 'compplanning' },
    { path: '/compensationplanning/approvals', screen: lazyScreen(() => import('./Approvals'), (m) => m.ApprovalsScreen), module: 'compplanning' },
    { path: '/compensationplanning/cycles/:meritCycleId', screen: lazyScreen(cycle, (m) => m.CycleScreen), module: 'compplanning' },
    { path: '/compensationplanning/cycles/:meritCycleId/worksheets/:worksheetId', screen: lazyScreen(() => import('./Worksheet'), (m) => m.WorksheetScreen), module: 'compplanning' },
    { path: '/compensationplanning/cycles/:meritCycleId/:section', screen: lazyScreen(cycle, (m) => m.CycleScreen), module: 'compplanning' },
    // Last: any other planning address says so, with the way back (it must not hide the routes above).
    { path: '/compensationplanning/*', screen: lazyScreen(() => import('./Cycles'), (m) => m.PlanningNotFoundScreen), module: 'compplanning' },
  ],
  nav: [{ href: '/compensationplanning', label: 'Planning', order: 50, module: 'compplanning', icon: ClipboardList }],
  tiles: [{ module: 'compplanning', title: 'Compensation planning', description: 'Merit cycles, budgets, worksheets and approvals.', href: '/compensationplanning', icon: ClipboardList }],
});
