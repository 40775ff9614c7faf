import type { components } from '../contract-types.js';

type Schemas = components['schemas'];
export type CompTypeId = Schemas['CompTypeId'];
export type CompType = Schemas['CompType'];

interface Default {
  id: CompTypeId;
  title: string;
  description: string;
  category: 'cash' | 'equity';
  isRecommended: boolean;
}

/** Every compensation type the product knows, in display order, with its default title. */
export const COMP_TYPES: readonly Default[] = [
  { id: 'base_salary', title: 'Base salary', description: 'Annual base pay.', category: 'cash', isRecommended: true },
  { id: 'bonus_target', title: 'Bonus target', description: 'The annual bonus an employee can earn, as an amount or a percentage of base.', category: 'cash', isRecommended: true },
  { id: 'variable_pay', title: 'Variable pay', description: 'Other pay tied to results, paid through the year.', category: 'cash', isRecommended: false },
  { id: 'commission', title: 'Commission', description: 'Annual commission target of sales roles.', category: 'cash', isRecommended: false },
  { id: 'benefits', title: 'Benefits', description: 'Allowances and benefits paid in cash (car, housing, meals).', category: 'cash', isRecommended: false },
  { id: 'one_off_bonus', title: 'One-off bonus', description: 'A bonus paid once, on its date (a merit cycle’s lump sum).', category: 'cash', isRecommended: false },
  { id: 'option', title: 'Stock options', description: 'Options to buy shares at the exercise price.', category: 'equity', isRecommended: true },
  { id: 'rsu', title: 'RSUs', description: 'Restricted stock units, shares delivered as they vest.', category: 'equity', isRecommended: true },
  { id: 'rsa', title: 'Restricted stock', description: 'Shares granted up front, subject to vesting.', category: 'equity', isRecommended: false },
  { id: 'common_stock', title: 'Common stock', description: 'Common shares held outright.', category: 'equity', isRecommended: false },
];

export const COMP_TYPE_IDS: ReadonlySet<string> = new Set(COMP_TYPES.map((type) => type.id));

/** What a company changed of one type; absent fields keep the default. */
export interface StoredChoice {
  title?: string;
  description?: string;
  isDisabled?: boolean;
}

/** The types as a company has them: the defaults with its choices applied. */
export function applyChoices(choices: Partial<Record<string, StoredChoice>>): CompType[] {
  return COMP_TYPES.map((type) => {
    const choice = choices[type.id] ?? {};
    return {
      id: type.id,
      title: choice.title ?? type.title,
      defaultTitle: type.title,
      description: choice.description ?? type.description,
      category: type.category,
      isRecommended: type.isRecommended,
      isDisabled: type.id === 'base_salary' ? false : (choice.isDisabled ?? false),
    };
  });
}
