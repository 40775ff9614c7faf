import { useQuery } from '../api/client';

/** Every ISO 4217 currency as a select's options ("GBP — Pound Sterling"), after any options of the caller's own. */
export function CurrencyOptions() {
  const currencies = useQuery('/api/currencies');
  return (
    <>
      {(currencies.data?.data ?? []).map((currency) => (
        <option key={currency.code} value={currency.code}>
          {currency.code} — {currency.name}
        </option>
      ))}
    </>
  );
}
