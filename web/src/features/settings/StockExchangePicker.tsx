import { useMemo, useState } from 'react';
import { errorMessage, useQuery } from '../../api/client';

/**
 * The exchange a company's shares are listed on: a search over the shipped ISO 10383 exchanges (by
 * name, MIC or country) and a list to pick from; the chosen MIC goes with the form as `stockExchange`.
 */
export function StockExchangePicker({ value, disabled }: { value: string | null; disabled: boolean }) {
  const exchanges = useQuery('/api/stock-exchanges');
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<string>(value ?? '');
  const all = useMemo(() => exchanges.data?.data ?? [], [exchanges.data]);
  const shown = useMemo(() => {
    const words = search.trim().toLowerCase().split(/\s+/).filter(Boolean);
    return all.filter((exchange) => exchange.mic === chosen || words.every((word) => `${exchange.name} ${exchange.mic} ${exchange.operatingMic} ${exchange.country}`.toLowerCase().includes(word)));
  }, [all, search, chosen]);
  const current = all.find((exchange) => exchange.mic === chosen);
  return (
    <fieldset className="stock-exchange-picker" disabled={disabled}>
      <legend>Stock exchange</legend>
      <input type="hidden" name="stockExchange" value={chosen} />
      {exchanges.error ? (
        <p role="alert">The stock exchanges could not be loaded: {errorMessage(exchanges.error)}</p>
      ) : (
        <>
          <label>
            Search stock exchanges
            <input type="search" value={search} placeholder="Name, MIC or country, e.g. Madrid" onChange={(event) => setSearch(event.target.value)} />
          </label>
          <label>
            Listed on
            <select size={6} value={chosen} onChange={(event) => setChosen(event.target.value)}>
              <option value="">Not listed</option>
              {shown.map((exchange) => (
                <option key={exchange.mic} value={exchange.mic}>
                  {exchange.name} — {exchange.mic}
                  {exchange.kind === 'segment' ? ` (part of ${exchange.operatingMic})` : ''} · {exchange.country}
                </option>
              ))}
            </select>
          </label>
          <p className="muted small-text" aria-live="polite">
            {current ? `Listed on ${current.name} (MIC ${current.mic}, ${current.country}).` : 'Not listed on a stock exchange.'}
            {search && ` ${shown.filter((exchange) => exchange.mic !== chosen).length} match “${search}”.`}
          </p>
        </>
      )}
    </fieldset>
  );
}
