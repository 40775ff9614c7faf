import type { components } from '../contract-types.js';
import type { CurrencyRow } from './store.js';

export function presentCurrency(row: CurrencyRow): components['schemas']['Currency'] {
  return {
    code: row.code,
    numericCode: row.numeric_code,
    name: row.name,
    minorUnit: row.minor_unit === null ? null : Number(row.minor_unit),
    entities: JSON.parse(row.entities) as string[],
  };
}
