import { Info } from 'lucide-react';
import { type CSSProperties, useContext, useId, useMemo, useState } from 'react';
import { AreaChart, BarChart, type Datum, type Series, colourOf, shadeOpacity } from '../../ui/charts';
import { formatDate, formatMoney, formatNumber, formatPrice, majorOf, minorUnitOf } from '../../ui/format';
import { StatCard, StatGrid } from '../../ui/StatCard';
import { type CurrencySide, GRANT_NAMES, type ModelPrice, type Schemas, multipleLabel, showAmount, sideOf, simulate } from './model';
import { Embedded, StatementSection, group } from './StatementParts';

// The equity sections of the statement: grants with their vesting, future grants and the simulator.

const monthLabel = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** Vested shares (or their value) of every grant over time, stepping at each vesting date. */
function VestingChart({ equity, side }: { equity: Schemas['StatementEquity']; side: CurrencySide }) {
  const byValue = equity.show === 'value' && equity.grants.every((grant) => sideOf(grant.value?.total, side));
  const currency = byValue ? (sideOf(equity.grants[0]?.value?.total, side)?.currency ?? equity.price.currency) : '';
  const data = useMemo(() => {
    const dates = [...new Set(equity.grants.flatMap((grant) => [grant.vestingStartDate, ...grant.schedule.map((event) => event.date)]))].sort();
    return dates.map((date) => {
      const datum: Datum = { date: monthLabel(date) };
      equity.grants.forEach((grant, index) => {
        const vested = grant.schedule.filter((event) => event.date <= date).at(-1)?.cumulativeShares ?? 0;
        const total = sideOf(grant.value?.total, side);
        datum[`g${index}`] = byValue && total ? Math.round((majorOf(total) * vested) / Math.max(1, grant.shares)) : vested;
      });
      return datum;
    });
  }, [equity, side, byValue]);
  const series: Series[] = equity.grants.map((grant, index) => {
    const same = equity.grants.filter((other) => other.group === grant.group);
    return { key: `g${index}`, label: `${GRANT_NAMES[grant.grantType]} ${grant.grantNumber}`, colour: colourOf(group(grant.group)), opacity: shadeOpacity(same.indexOf(grant), same.length) };
  });
  return (
    <AreaChart
      title={byValue ? `Vested value over time, in ${currency}` : 'Vested shares over time'}
      data={data}
      categoryKey="date"
      categoryLabel="Date"
      series={series}
      unit={byValue ? { kind: 'money', currency } : { kind: 'count' }}
      height={240}
    />
  );
}

function Grant({ grant, side }: { grant: Schemas['StatementGrant']; side: CurrencySide }) {
  const titleId = useId();
  const GrantHeading = useContext(Embedded) ? 'h4' : 'h3';
  return (
    <li className="tr-grant" aria-labelledby={titleId} style={{ '--tr-swatch': colourOf(group(grant.group)) } as CSSProperties}>
      <GrantHeading id={titleId}>
        {formatNumber(grant.shares)} {GRANT_NAMES[grant.grantType].toLowerCase()}
      </GrantHeading>
      <p className="tr-grant-meta">
        Grant {grant.grantNumber} · {formatDate(grant.grantDate)}
        {grant.strikePrice && ` · exercise price ${formatPrice(grant.strikePrice.perShare, grant.strikePrice.currency)}`}
      </p>
      <div className="tr-progress" role="img" aria-label={`${formatNumber(grant.vestedPercent, 1)}% vested`}>
        <span style={{ width: `${Math.min(100, grant.vestedPercent)}%` }} />
      </div>
      <dl className="tr-facts">
        <dt>Vested</dt>
        <dd data-testid="tr-grant-vested">
          {formatNumber(grant.vestedShares)} of {formatNumber(grant.shares)} ({formatNumber(grant.vestedPercent, 1)}%)
        </dd>
        {grant.value && (
          <>
            <dt>Vested value</dt>
            <dd>{showAmount(grant.value.vested, side)}</dd>
            <dt>Unvested value</dt>
            <dd>{showAmount(grant.value.unvested, side)}</dd>
          </>
        )}
        {grant.cliffDate && (
          <>
            <dt>Cliff</dt>
            <dd>
              {formatDate(grant.cliffDate)} ({grant.cliffMonths} months)
            </dd>
          </>
        )}
        <dt>Next vesting</dt>
        <dd>{grant.vestingEndedOn ? `Stopped on ${formatDate(grant.vestingEndedOn)}` : grant.nextVestingDate ? formatDate(grant.nextVestingDate) : 'Fully vested'}</dd>
        <dt>Fully vested</dt>
        <dd>{formatDate(grant.fullyVestedDate)}</dd>
        <dt>Schedule</dt>
        <dd>
          {grant.vestingMonths} months, {grant.vestingFrequency}
        </dd>
      </dl>
      {grant.isUnderwater && <p className="tr-note">The exercise price is above the share price today, so these options are worth nothing for now.</p>}
      <details className="tr-history">
        <summary>Vesting schedule ({grant.schedule.length} dates)</summary>
        <table>
          <caption className="visually-hidden">Vesting schedule of grant {grant.grantNumber}</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Shares</th>
              <th scope="col">In total</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {grant.schedule.map((event) => (
              <tr key={event.date}>
                <th scope="row">{formatDate(event.date)}</th>
                <td>{formatNumber(event.shares)}</td>
                <td>{formatNumber(event.cumulativeShares)}</td>
                <td>{event.vested ? 'Vested' : 'To vest'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </li>
  );
}

export function Equity({ equity, side }: { equity: Schemas['StatementEquity']; side: CurrencySide }) {
  const { totals } = equity;
  return (
    <StatementSection name="equity" title={equity.title} text={equity.text}>
      {equity.grants.length === 0 ? (
        <p className="muted">You have no equity grants.</p>
      ) : (
        <>
          <StatGrid label="Your equity at a glance">
            {totals.value && <StatCard label="Vested value" value={showAmount(totals.value.vested, side)} hint="Yours to keep under the plan’s rules" swatch={colourOf('future.equity')} testId="tr-equity-vested" />}
            {totals.value && <StatCard label="Unvested value" value={showAmount(totals.value.unvested, side)} hint="Vests over the coming years" />}
            <StatCard label="Shares vested" value={`${formatNumber(totals.vestedShares)} of ${formatNumber(totals.shares)}`} hint={`${formatNumber(totals.unvestedShares)} still to vest`} />
          </StatGrid>
          {equity.show === 'value' && (
            <p className="tr-price">
              Valued at {formatPrice(equity.price.perShare, equity.price.currency)} a share{equity.price.source === 'custom' ? ', the price your company chose for statements' : ', the company’s share price'}, less any exercise price.
            </p>
          )}
          <VestingChart equity={equity} side={side} />
          <ul className="tr-grants">
            {equity.grants.map((grant) => (
              <Grant key={grant.id} grant={grant} side={side} />
            ))}
          </ul>
        </>
      )}
    </StatementSection>
  );
}

export function FutureGrants({ future, side }: { future: Schemas['StatementFutureGrants']; side: CurrencySide }) {
  const valued = future.years.every((year) => sideOf(year.value, side));
  const currency = valued ? (sideOf(future.years[0]?.value, side)?.currency ?? '') : '';
  const groups = [...new Map(future.years.flatMap((year) => year.parts).map((part) => [part.group, part.label])).entries()];
  const data: Datum[] = future.years.map((year) => {
    const datum: Datum = { year: String(year.year) };
    for (const [name] of groups) {
      const part = year.parts.find((candidate) => candidate.group === name);
      const money = sideOf(part?.value, side);
      datum[name] = valued ? (money ? majorOf(money) : 0) : (part?.shares ?? 0);
    }
    return datum;
  });
  return (
    <StatementSection name="futureGrants" title={future.title} text={future.text}>
      {future.years.length === 0 ? (
        <p className="muted">Everything you were granted has vested.</p>
      ) : (
        <BarChart
          title={valued ? `Equity still to vest by year, in ${currency}` : 'Shares still to vest by year'}
          data={data}
          categoryKey="year"
          categoryLabel="Year"
          series={groups.map(([name, label]) => ({ key: name, label, colour: colourOf(group(name)) }))}
          unit={valued ? { kind: 'money', currency } : { kind: 'count' }}
          stacked
          orientation="columns"
          height={220}
        />
      )}
    </StatementSection>
  );
}

/** The comp simulator: a valuation slider (the multiples the company allows) or the person's own price; no tax modelled. */
export function Simulator({ model }: { model: Schemas['StatementFutureModeling'] }) {
  const [index, setIndex] = useState(0);
  const [custom, setCustom] = useState('');
  const sliderId = useId();
  const multiple = model.multiples[Math.min(index, model.multiples.length - 1)] ?? 1;
  const customPrice = model.customPriceAllowed && custom.trim() !== '' && Number(custom) >= 0 && Number.isFinite(Number(custom)) ? Number(custom) : null;
  const price: ModelPrice = customPrice === null ? { kind: 'multiple', multiple } : { kind: 'custom', perShare: customPrice };
  const result = simulate(model, price);
  const currency = model.price.currency;
  const money = (value: number) => formatMoney({ amount: Math.round(value * 10 ** minorUnitOf(currency)), currency });
  const scenario = customPrice === null ? `at ${multipleLabel(multiple)}` : `at ${formatPrice(customPrice, currency)} a share`;
  const fourYears = result.years.reduce((sum, year) => sum + year.cash + year.equity + year.benefits, 0);
  return (
    <StatementSection name="futureModeling" title={model.title} text={model.text}>
      <div className="tr-simulator">
        <label htmlFor={sliderId} className="tr-slider-label">
          Company valuation, as a multiple of today’s: <strong>{multipleLabel(multiple)}</strong>
        </label>
        <input
          id={sliderId}
          className="tr-slider"
          type="range"
          min={0}
          max={Math.max(0, model.multiples.length - 1)}
          step={1}
          value={index}
          disabled={customPrice !== null}
          aria-valuetext={`${multipleLabel(multiple)}, ${formatPrice(model.price.perShare * multiple, currency)} a share`}
          onChange={(event) => setIndex(Number(event.target.value))}
          list={`${sliderId}-marks`}
        />
        <datalist id={`${sliderId}-marks`}>
          {model.multiples.map((value, position) => (
            <option key={value} value={position} label={multipleLabel(value)} />
          ))}
        </datalist>
        <div className="tr-slider-marks" aria-hidden="true">
          {model.multiples.map((value) => (
            <span key={value}>{multipleLabel(value)}</span>
          ))}
        </div>
        {model.customPriceAllowed && (
          <label className="tr-custom-price">
            Or try your own share price ({currency})
            <input type="number" inputMode="decimal" min={0} step="0.01" value={custom} placeholder={formatNumber(model.price.perShare, 2)} onChange={(event) => setCustom(event.target.value)} />
          </label>
        )}
        <output className="tr-sim-price" htmlFor={sliderId}>
          {formatPrice(result.price, currency)} a share
        </output>
      </div>
      <StatGrid label={`Your equity ${scenario}`}>
        <StatCard label={`Your equity ${scenario}`} value={money(result.allEquity)} hint="Every share you were granted, less exercise prices" swatch={colourOf('future.equity')} testId="tr-sim-equity" />
        <StatCard label="Vesting in the next four years" value={money(result.vestingEquity)} hint={`Shares that vest by ${formatDate(model.checkpoints.at(-1))}`} />
        <StatCard label="Four years of total rewards" value={money(fourYears)} hint="Cash, benefits and vesting equity" swatch={colourOf('future.cash')} />
      </StatGrid>
      <BarChart
        title={`The next four years ${scenario}, in ${currency}`}
        data={result.years.map((year) => ({ year: year.label, cash: year.cash, equity: year.equity, benefits: year.benefits }))}
        categoryKey="year"
        categoryLabel="Year"
        series={[
          { key: 'cash', label: 'Cash', colour: colourOf('future.cash') },
          { key: 'equity', label: 'Equity vesting', colour: colourOf('future.equity') },
          { key: 'benefits', label: 'Benefits', colour: colourOf('future.other') },
        ]}
        unit={{ kind: 'money', currency }}
        stacked
        orientation="columns"
        height={240}
      />
      <p className="tr-disclaimer">
        <Info size={16} aria-hidden="true" /> A model, not a promise: it models no tax, uses today’s cash pay and benefits for every year, and share prices can fall as well as rise. Amounts in {currency}, the currency of the share price.
      </p>
    </StatementSection>
  );
}
