import type { PermissionMap } from './permissions.js';
import { PERMISSION_NAMES } from './permissions.js';

export interface BuiltinRole {
  key: string;
  name: string;
  description: string;
  permissions: PermissionMap;
}

const grant = (authority: 'edit' | 'view', scope = 'all') => [{ authority, scope }];

/** The roles every company starts with. Companies can add their own; these cannot be renamed away. */
export const BUILTIN_ROLES: BuiltinRole[] = [
  {
    key: 'admin',
    name: 'Admin',
    description: 'Everything: people, pay programs, market data, users, roles and settings.',
    permissions: Object.fromEntries(PERMISSION_NAMES.map((name) => [name, grant('edit')])),
  },
  {
    key: 'compensation_planner',
    name: 'Compensation planner',
    description: 'Runs the pay programs: benchmarking, bands, merit cycles and offers, with every employee’s pay.',
    permissions: {
      benchmarking: grant('edit'),
      bands: grant('edit'),
      compensationPlanning: grant('edit'),
      offers: grant('edit'),
      team: grant('view'),
      employeeCompensation: grant('edit'),
      demographics: grant('view'),
      totalRewards: grant('view'),
      dataLab: grant('edit'),
      companySettings: grant('view'),
      users: grant('view'),
      roles: grant('view'),
    },
  },
  {
    key: 'people_manager',
    name: 'People manager',
    description: 'Sees and plans pay for their own reports only; reads market data.',
    permissions: {
      benchmarking: grant('view'),
      team: grant('view', 'reports'),
      employeeCompensation: grant('view', 'reports'),
      compensationPlanning: grant('edit', 'reports'),
      offers: grant('view'),
      totalRewards: grant('view', 'self'),
    },
  },
  {
    key: 'employee',
    name: 'Employee',
    description: 'Reads their own total-rewards statement.',
    permissions: { totalRewards: grant('view', 'self') },
  },
  {
    key: 'analyst',
    name: 'Read-only analyst',
    description: 'Reads market data, bands, plans and pay across the company; changes nothing.',
    permissions: {
      benchmarking: grant('view'),
      bands: grant('view'),
      team: grant('view'),
      employeeCompensation: grant('view'),
      compensationPlanning: grant('view'),
      offers: grant('view'),
      dataLab: grant('view'),
    },
  },
];
