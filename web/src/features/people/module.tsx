import { defineModule, lazyScreen } from '../../app/webModule';

/** One employee's records, to read and correct: reached from the team view's drawer. */
export default defineModule({
  routes: [{ path: '/people/:employeeId', screen: lazyScreen(() => import('./EmployeeRecord'), (m) => m.EmployeeRecordScreen), module: 'teamview' }],
});
