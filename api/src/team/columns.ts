import type { components } from '../contract-types.js';
import type { CompTypes } from '../compTypes/reads.js';

export type TeamColumn = components['schemas']['TeamColumn'];
export type TeamColumnInfo = components['schemas']['TeamColumnInfo'];

/** Every column of the employee table, in the order the picker offers them. */
export const TEAM_COLUMNS: readonly TeamColumnInfo[] = [
  { key: 'name', label: 'Name', pay: false },
  { key: 'employeeNumber', label: 'Employee ID', pay: false },
  { key: 'email', label: 'E-mail', pay: false },
  { key: 'title', label: 'Title', pay: false },
  { key: 'department', label: 'Department', pay: false },
  { key: 'jobFamily', label: 'Job family', pay: false },
  { key: 'level', label: 'Level', pay: false },
  { key: 'track', label: 'Track', pay: false },
  { key: 'location', label: 'Location', pay: false },
  { key: 'country', label: 'Country', pay: false },
  { key: 'manager', label: 'Manager', pay: false },
  { key: 'startDate', label: 'Start date', pay: false },
  { key: 'employmentType', label: 'Employment type', pay: false },
  { key: 'status', label: 'Status', pay: false },
  // A rating is read with pay (docs/permissions.md): it shows, sorts and groups only with employeeCompensation.
  { key: 'performanceRating', label: 'Performance rating', pay: true },
  { key: 'baseSalary', label: 'Base salary', pay: true },
  { key: 'bonusTarget', label: 'Bonus target', pay: true },
  { key: 'variablePay', label: 'Variable pay', pay: true },
  { key: 'commission', label: 'Commission', pay: true },
  { key: 'totalCash', label: 'Total cash', pay: true },
  { key: 'compaRatio', label: 'Compa-ratio', pay: true },
  { key: 'bandPosition', label: 'Band position', pay: true },
  { key: 'grantedShares', label: 'Granted shares', pay: true },
  { key: 'vestedShares', label: 'Vested shares', pay: true },
  { key: 'equityValue', label: 'Equity value', pay: true },
  { key: 'lastRaiseDate', label: 'Last raise', pay: true },
];

const BY_KEY = new Map(TEAM_COLUMNS.map((column) => [column.key, column]));

export function columnInfo(key: TeamColumn): TeamColumnInfo {
  const info = BY_KEY.get(key);
  if (!info) throw new Error(`Unknown team column ${key}`);
  return info;
}

export const isPayColumn = (key: TeamColumn): boolean => columnInfo(key).pay;

export const EQUITY_COLUMNS: ReadonlySet<TeamColumn> = new Set(['grantedShares', 'vestedShares', 'equityValue']);

/** The columns a person may show: pay columns only with the pay permission. */
export const availableColumns = (payVisible: boolean): TeamColumnInfo[] => TEAM_COLUMNS.filter((column) => payVisible || !column.pay);

/** The pay columns that show one compensation type. */
const COLUMN_TYPES: Partial<Record<TeamColumn, 'base_salary' | 'bonus_target' | 'variable_pay' | 'commission'>> = {
  baseSalary: 'base_salary',
  bonusTarget: 'bonus_target',
  variablePay: 'variable_pay',
  commission: 'commission',
};

/** The columns under the company's comp type settings: a switched-off type's column is gone, a renamed one carries its title. */
export function withCompTypes(columns: readonly TeamColumnInfo[], types: CompTypes): TeamColumnInfo[] {
  return columns.flatMap((column) => {
    const type = COLUMN_TYPES[column.key];
    if (!type) return [column];
    if (!types.enabled(type)) return [];
    return [{ ...column, label: types.renamed(type) ?? column.label }];
  });
}
