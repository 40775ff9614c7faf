import type { components } from '../../../../openapi.d.ts';
import { invalidate } from '../../api/queries';
import { formatMoney } from '../../ui/format';

export type Schemas = components['schemas'];
export type Employee = Schemas['Employee'];
export type Money = Schemas['Money'];

/** Enum values in words: `base_salary` → "Base salary". */
export const words = (value: string): string => {
  const spaced = value.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
};

export const isMoney = (value: unknown): value is Money =>
  typeof value === 'object' && value !== null && typeof (value as Money).amount === 'number' && typeof (value as Money).currency === 'string';

/** A logged value in words: money in its currency, dates and words as they are, nothing as a dash. */
/** Fields whose values are the contract's enums, shown in words ("base_salary" → "Base salary"). */
const ENUM_FIELDS = new Set(['type', 'reason', 'grantType', 'employmentType', 'status', 'vestingFrequency']);

export function valueText(value: unknown, label: string | null = null, field = ''): string {
  if (label) return label;
  if (value === null || value === undefined || value === '') return '—';
  if (isMoney(value)) return formatMoney(value, { cents: true });
  if (typeof value === 'number') return value.toLocaleString();
  if (typeof value === 'string' && ENUM_FIELDS.has(field)) return words(value);
  return String(value);
}

/**
 * After a correction: every cached answer about people and the team view is asked again (the
 * drawer, the table, the timeline, this record and its history).
 */
export const refreshPeople = (): Promise<void> => invalidate((path) => path.startsWith('/api/employees') || path.startsWith('/api/team'));

export const today = (): string => new Date().toISOString().slice(0, 10);

type Person = Schemas['Person'];

/** Whether the person holds any grant of `permission` (edit needs an edit grant); the server checks the scope again. */
export function holds(person: Person | undefined, permission: string, authority: 'view' | 'edit'): boolean {
  return (person?.permissionsV3[permission] ?? []).some((grant) => authority === 'view' || grant.authority === 'edit');
}
