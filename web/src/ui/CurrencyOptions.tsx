import { useQuery } from '../api/client';

/**
 * Every ISO 4217 currency as a select's options ("GBP — Pound Sterling"), after any options of the
 * caller's own. `current`: a controlled select's value, kept as the one option while the list loads.
 */
export function CurrencyOptions({ current }: { current?: string }) {
  const currencies = useQuery('/api/currencies');
  return (
    <>
      {!currencies.data && current !== undefined && <option value={current}>{current}</option>}
      {(currencies.data?.data ?? []).map((currency) => (
        <option key={currency.code} value={currency.code}>
          {currency.code} — {currency.name}
        </option>
      ))}
    </>
  );
}
