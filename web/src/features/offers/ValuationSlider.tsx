import { useId, useState } from 'react';
import { type GrantView, YEARS, equityByYear, money, multipleText, sharePrice, underwater, valuePerShare } from './model';

export const MAX_MULTIPLE = 10;
export const MULTIPLE_STEP = 0.5;

type Mode = 'valuation' | 'price';

/**
 * The valuation slider: what the grant could be worth if the company were worth a multiple of
 * today's valuation (or a share a chosen price), vesting over four years. The multiple is the
 * caller's (the package chart and the comparison follow it). The floor is zero, and it says so.
 */
export function ValuationSlider({
  grant,
  pricePerShare,
  valuation,
  multiple,
  onChange,
}: {
  grant: GrantView;
  /** Today's price per share (the latest fair market value), in major units. */
  pricePerShare: number;
  /** Today's company valuation, if the company shares it. */
  valuation: number | null;
  multiple: number;
  onChange: (multiple: number) => void;
}) {
  const id = useId();
  const currency = grant.currency;
  const [mode, setMode] = useState<Mode>(valuation !== null ? 'valuation' : 'price');
  const price = pricePerShare * multiple;
  const byYear = equityByYear(grant, price);
  const total = byYear.reduce((sum, value) => sum + value, 0);
  const worthless = valuePerShare(grant, price) === 0;
  const priceStep = Math.max(0.01, Math.round(pricePerShare * MULTIPLE_STEP * 100) / 100);
  const valueText = mode === 'valuation' ? `${multipleText(multiple)} today’s valuation${valuation !== null ? ` (${money(valuation * multiple, currency)})` : ''}` : `${sharePrice(price, currency)} per share`;
  return (
    <section className="offer-slider card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>What your equity could be worth</h2>
      <fieldset className="offer-slider-mode">
        <legend>Move the slider by</legend>
        <label className="check">
          <input type="radio" name={`${id}-mode`} checked={mode === 'valuation'} onChange={() => setMode('valuation')} />
          Multiples of today’s valuation
        </label>
        <label className="check">
          <input type="radio" name={`${id}-mode`} checked={mode === 'price'} onChange={() => setMode('price')} />
          Price per share
        </label>
      </fieldset>
      <label className="offer-slider-range" htmlFor={`${id}-range`}>
        {mode === 'valuation' ? 'Company valuation' : 'Price per share'}
      </label>
      {mode === 'valuation' ? (
        <input
          id={`${id}-range`}
          type="range"
          min={0}
          max={MAX_MULTIPLE}
          step={MULTIPLE_STEP}
          value={multiple}
          aria-valuetext={valueText}
          onChange={(event) => onChange(Number(event.target.value))}
        />
      ) : (
        <input
          id={`${id}-range`}
          type="range"
          min={0}
          max={priceStep * (MAX_MULTIPLE / MULTIPLE_STEP)}
          step={priceStep}
          value={Math.round(multiple / MULTIPLE_STEP) * priceStep}
          aria-valuetext={valueText}
          onChange={(event) => onChange((Number(event.target.value) / priceStep) * MULTIPLE_STEP)}
        />
      )}
      <p className="offer-slider-scale muted small-text" aria-hidden="true">
        <span>0×</span>
        <span>{multipleText(MAX_MULTIPLE)}</span>
      </p>
      <output className="offer-slider-output" htmlFor={`${id}-range`} aria-live="polite">
        <span className="offer-slider-now" data-testid="slider-setting">
          {multipleText(multiple)} today · {sharePrice(price, currency)} a share{valuation !== null ? ` · company worth ${money(valuation * multiple, currency)}` : ''}
        </span>
        <span className="offer-slider-total">
          Value over four years: <strong data-testid="equity-four-years">{money(total, currency)}</strong>
        </span>
      </output>
      <ol className="offer-slider-years" aria-label="Value vesting each year">
        {YEARS.map((year, index) => (
          <li key={year}>
            <span>Year {year}</span>
            <strong>{money(byYear[index] ?? 0, currency)}</strong>
          </li>
        ))}
      </ol>
      <p className={worthless ? 'offer-floor warning' : 'offer-floor muted small-text'} role={worthless ? 'status' : undefined}>
        {worthless && underwater(grant, price)
          ? `At ${sharePrice(price, currency)} a share your options are worth ${money(0, currency)}: a share would cost no more than the strike price of ${sharePrice(grant.strikePrice ?? 0, currency)}. The value never goes below zero — you would simply not buy.`
          : worthless
            ? `At this price your equity is worth ${money(0, currency)}. The value never goes below zero.`
            : 'The value never goes below zero: the least your equity can be worth is nothing.'}
      </p>
      <p className="muted small-text">
        An illustration, not a promise: today {sharePrice(pricePerShare, currency)} a share{valuation !== null ? `, ${money(valuation, currency)} for the company` : ''}. Values are before tax{grant.type === 'option' ? ', after the strike price' : ''}.
      </p>
    </section>
  );
}
