import { Download, Info, WifiOff } from 'lucide-react';
import { type CSSProperties, type ReactNode, createContext, useContext, useId, useMemo, useState } from 'react';
import { AreaChart, BarChart, type ColourGroup, type Datum, type Series, StackedBar, colourOf, shadeOpacity } from '../../ui/charts';
import { formatDate, formatMoney, formatNumber, formatPrice, majorOf, minorUnitOf } from '../../ui/format';
import { StatCard, StatGrid } from '../../ui/StatCard';
import { Tooltip } from '../../ui/Tooltip';
import {
  type CurrencySide,
  GRANT_NAMES,
  type ModelPrice,
  SECTION_NAV_LABELS,
  SECTION_SLUGS,
  type Schemas,
  type SectionName,
  type Statement,
  multipleLabel,
  paragraphsOf,
  showAmount,
  sideOf,
  simulate,
} from './model';
import './totalRewards.css';

// The total-rewards statement as an employee reads it: phone first, one column of sections in the
// company's order and colours, every amount in the currency they pick. Charts use the one chart
// theme (the spec's colour groups) and every chart has its numbers as text.

const group = (name: Schemas['CompColourGroup']): ColourGroup => name;

/** White or near-black, whichever reads on the company's colour (WCAG relative luminance). */
function inkOn(hex: string): string {
  const channel = (part: string) => {
    const value = parseInt(part, 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const [r, g, b] = [hex.slice(1, 3), hex.slice(3, 5), hex.slice(5, 7)].map(channel) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.2 ? '#111827' : '#ffffff';
}

const sectionId = (name: SectionName) => `tr-${SECTION_SLUGS[name]}`;

/** Whether the statement is the page (its name is the h1) or sits inside another page (the settings' preview). */
const Embedded = createContext(false);

function Paragraphs({ text }: { text: string }) {
  return (
    <>
      {paragraphsOf(text).map((paragraph, index) => (
        <p key={index} className="tr-text">
          {paragraph}
        </p>
      ))}
    </>
  );
}

function StatementSection({ name, title, text, children, actions }: { name: SectionName; title: string; text: string; children?: ReactNode; actions?: ReactNode }) {
  const id = sectionId(name);
  const Heading = useContext(Embedded) ? 'h3' : 'h2';
  return (
    <section className="tr-section" id={id} aria-labelledby={`${id}-title`} data-section={name}>
      <header className="tr-section-head">
        <Heading id={`${id}-title`}>{title}</Heading>
        {actions}
      </header>
      {text && <Paragraphs text={text} />}
      {children}
    </section>
  );
}

// ── the frame ───────────────────────────────────────────────────────────────────────────────

function Banner({ statement }: { statement: Statement }) {
  const { appearance, employee, asOf } = statement;
  const style = { '--tr-banner': appearance.bannerColor, '--tr-banner-ink': inkOn(appearance.bannerColor), '--tr-brand': appearance.brandColor } as CSSProperties;
  const Name = useContext(Embedded) ? 'h2' : 'h1';
  return (
    <header className="tr-banner" style={style}>
      {appearance.bannerImage && <img className="tr-banner-image" src={appearance.bannerImage} alt="" />}
      <div className="tr-banner-body">
        <div className="tr-company">
          {appearance.logo ? (
            <img className="tr-logo" src={appearance.logo} alt={`${appearance.companyName} logo`} />
          ) : (
            <span className="tr-logo tr-logo-text" aria-hidden="true">
              {appearance.logoText}
            </span>
          )}
          <span className="tr-company-name">{appearance.companyName}</span>
        </div>
        <p className="tr-eyebrow">Total rewards statement{statement.viewer === 'preview' ? ' · preview' : ''}</p>
        <Name className="tr-name">
          {employee.firstName} {employee.lastName}
        </Name>
        <p className="tr-role">{[employee.title, employee.department].filter(Boolean).join(' · ')}</p>
        <p className="tr-banner-text">{appearance.bannerText}</p>
        <p className="tr-asof">As of {formatDate(asOf)}</p>
      </div>
    </header>
  );
}

function rateText(exchange: Schemas['StatementExchange']): string {
  if (exchange.rate === null) return `No reference rate converts ${exchange.local} to ${exchange.company} on this date.`;
  const rate = new Intl.NumberFormat(undefined, { maximumSignificantDigits: 6 }).format(exchange.rate);
  return `1 ${exchange.local} = ${rate} ${exchange.company}, European Central Bank reference rate of ${formatDate(exchange.date)}`;
}

/** Local ↔ company currency; the rate and its date show on hover or focus (and in the statement's footer). */
function CurrencySwitch({ exchange, side, onChange }: { exchange: Schemas['StatementExchange']; side: CurrencySide; onChange: (side: CurrencySide) => void }) {
  if (exchange.local === exchange.company) return <span className="tr-currency-single">All amounts in {exchange.local}</span>;
  const text = rateText(exchange);
  const option = (value: CurrencySide, code: string, hint: string) => (
    <Tooltip content={text} side="bottom">
      <button type="button" className={side === value ? 'tr-currency-option active' : 'tr-currency-option'} aria-pressed={side === value} onClick={() => onChange(value)}>
        {code}
        <span className="visually-hidden"> ({hint})</span>
      </button>
    </Tooltip>
  );
  return (
    <div className="tr-currency" role="group" aria-label="Show amounts in">
      {option('local', exchange.local, 'your pay currency')}
      {option('company', exchange.company, 'the company currency')}
    </div>
  );
}

function SectionNav({ sections }: { sections: SectionName[] }) {
  return (
    <nav className="tr-nav" aria-label="Statement sections">
      <ul>
        {sections.map((name) => (
          <li key={name}>
            <a href={`#${sectionId(name)}`}>{SECTION_NAV_LABELS[name]}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

// ── sections ────────────────────────────────────────────────────────────────────────────────

function Overview({ overview, side, currency }: { overview: Schemas['StatementOverview']; side: CurrencySide; currency: string }) {
  const bars = overview.breakdown.flatMap((part) => {
    const money = sideOf(part.amount, side);
    return money ? [{ label: part.label, value: majorOf(money), colour: colourOf(group(part.group)) }] : [];
  });
  return (
    <StatementSection name="overview" title={overview.title} text={overview.text}>
      <p className="tr-total">
        <span>A year, in total</span>
        <strong data-testid="tr-total">{showAmount(overview.total, side)}</strong>
      </p>
      {bars.length > 0 && <StackedBar title={`Your total rewards a year, in ${currency}`} bars={bars} unit={{ kind: 'money', currency }} categoryLabel="Part" valueLabel="A year" />}
      <ul className="tr-notes">
        {overview.notes.map((note) => (
          <li key={note}>{note}</li>
        ))}
      </ul>
    </StatementSection>
  );
}

function Change({ percent }: { percent: number | null }) {
  if (percent === null || percent === 0) return null;
  return <span className={percent > 0 ? 'tr-change up' : 'tr-change down'}>{`${percent > 0 ? '+' : ''}${formatNumber(percent, 1)}%`}</span>;
}

function Timeline({ timeline, side }: { timeline: Schemas['StatementTimeline']; side: CurrencySide }) {
  return (
    <StatementSection name="timeline" title={timeline.title} text={timeline.text}>
      {timeline.events.length === 0 ? (
        <p className="muted">Nothing to show yet.</p>
      ) : (
        <ol className="tr-timeline">
          {timeline.events.map((event, index) => (
            <li key={`${event.date}-${index}`} className={`tr-event tr-event-${event.kind}`}>
              <time dateTime={event.date}>{formatDate(event.date)}</time>
              <span className="tr-event-label">{event.label}</span>
              {event.amount && (
                <span className="tr-event-amount">
                  {showAmount(event.amount, side)} <Change percent={event.changePercent} />
                </span>
              )}
              {event.grant && <span className="tr-event-amount">{`${formatNumber(event.grant.shares)} ${GRANT_NAMES[event.grant.grantType].toLowerCase()}`}</span>}
            </li>
          ))}
        </ol>
      )}
    </StatementSection>
  );
}

function PaySection({ name, section, side }: { name: SectionName; section: Schemas['StatementPaySection']; side: CurrencySide }) {
  return (
    <StatementSection name={name} title={section.title} text={section.text}>
      {section.items.length === 0 && <p className="muted">Nothing of this kind in your pay today.</p>}
      <ul className="tr-pay">
        {section.items.map((item) => (
          <li key={item.type} className="tr-pay-item" style={{ '--tr-swatch': colourOf(group(item.group)) } as CSSProperties}>
            <span className="tr-pay-label">{item.label}</span>
            <strong className="tr-pay-amount" data-testid={`tr-${name}-${item.type}`}>
              {showAmount(item.amount, side)}
            </strong>
            <span className="tr-pay-meta">
              {item.target === 'percent' && item.percentOfBase !== null ? `Target: ${formatNumber(item.percentOfBase, 1)}% of base salary` : item.type === 'base_salary' ? 'A year, before tax' : 'Target: a set amount'}
              {` · since ${formatDate(item.effectiveDate)}`}
            </span>
            {item.history.length > 1 && (
              <details className="tr-history">
                <summary>History ({item.history.length})</summary>
                <table>
                  <caption className="visually-hidden">{item.label} history</caption>
                  <thead>
                    <tr>
                      <th scope="col">From</th>
                      <th scope="col">Amount</th>
                      <th scope="col">Change</th>
                    </tr>
                  </thead>
                  <tbody>
                    {item.history.map((change) => (
                      <tr key={change.effectiveDate}>
                        <th scope="row">{formatDate(change.effectiveDate)}</th>
                        <td>{showAmount(change.amount, side)}</td>
                        <td>{change.changePercent === null ? '—' : `${formatNumber(change.changePercent, 1)}%`}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </details>
            )}
          </li>
        ))}
      </ul>
      {section.totalCash && (
        <p className="tr-total small">
          <span>Total cash a year</span>
          <strong>{showAmount(section.totalCash, side)}</strong>
        </p>
      )}
    </StatementSection>
  );
}

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

function Equity({ equity, side }: { equity: Schemas['StatementEquity']; side: CurrencySide }) {
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

function FutureGrants({ future, side }: { future: Schemas['StatementFutureGrants']; side: CurrencySide }) {
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
function Simulator({ model }: { model: Schemas['StatementFutureModeling'] }) {
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

function Benefits({ benefits, side }: { benefits: Schemas['StatementBenefits']; side: CurrencySide }) {
  return (
    <StatementSection name="benefits" title={benefits.title} text={benefits.text}>
      {benefits.items.length === 0 ? (
        <p className="muted">No benefits are listed for you yet.</p>
      ) : (
        <>
          <ul className="tr-benefits">
            {benefits.items.map((item) => (
              <li key={item.id}>
                <span className="tr-benefit-name">{item.name}</span>
                <span className="tr-benefit-value">{item.annualValue ? `${showAmount(item.annualValue, side)} a year` : 'Included'}</span>
                {item.description && <span className="tr-benefit-text">{item.description}</span>}
              </li>
            ))}
          </ul>
          <p className="tr-total small">
            <span>Benefits a year</span>
            <strong>{showAmount(benefits.total, side)}</strong>
          </p>
        </>
      )}
    </StatementSection>
  );
}

function LearningHub({ hub }: { hub: Schemas['StatementLearningHub'] }) {
  return (
    <StatementSection name="learningHub" title={hub.title} text={hub.text}>
      <div className="tr-articles">
        {hub.articles.map((article) => (
          <details key={article.id} className="tr-article">
            <summary>
              <span className="tr-article-title">{article.title}</span>
              {article.summary && <span className="tr-article-summary">{article.summary}</span>}
            </summary>
            <Paragraphs text={article.body} />
          </details>
        ))}
      </div>
    </StatementSection>
  );
}

// ── the whole ───────────────────────────────────────────────────────────────────────────────

export interface StatementViewProps {
  statement: Statement;
  /** Downloads the PDF in the chosen currency; absent in the settings' preview. */
  onDownload?: (side: CurrencySide) => Promise<void>;
  /** The copy the device kept (offline). */
  offline?: boolean;
  /** Inside another page (the settings' live preview): headings one level down, no section links. */
  embedded?: boolean;
}

export function StatementView({ statement, onDownload, offline = false, embedded = false }: StatementViewProps) {
  const [side, setSide] = useState<CurrencySide>('local');
  const [downloading, setDownloading] = useState(false);
  const currency = side === 'local' ? statement.exchange.local : statement.exchange.company;
  const download = onDownload
    ? async () => {
        setDownloading(true);
        await onDownload(side).finally(() => setDownloading(false));
      }
    : undefined;
  const rendered = (name: SectionName): ReactNode => {
    switch (name) {
      case 'overview':
        return statement.overview && <Overview overview={statement.overview} side={side} currency={currency} />;
      case 'timeline':
        return statement.timeline && <Timeline timeline={statement.timeline} side={side} />;
      case 'compensation':
      case 'salary':
      case 'bonus':
      case 'variablePay': {
        const section = statement[name];
        return section && <PaySection name={name} section={section} side={side} />;
      }
      case 'equity':
        return statement.equity && <Equity equity={statement.equity} side={side} />;
      case 'futureGrants':
        return statement.futureGrants && <FutureGrants future={statement.futureGrants} side={side} />;
      case 'futureModeling':
        return statement.futureModeling && <Simulator model={statement.futureModeling} />;
      case 'benefits':
        return statement.benefits && <Benefits benefits={statement.benefits} side={side} />;
      case 'aboutUs':
        return statement.aboutUs && <StatementSection name="aboutUs" title={statement.aboutUs.title} text={statement.aboutUs.text} />;
      case 'learningHub':
        return statement.learningHub && <LearningHub hub={statement.learningHub} />;
    }
  };
  return (
    <Embedded.Provider value={embedded}>
    <article className={embedded ? 'tr-statement embedded' : 'tr-statement'} aria-label={`Total rewards statement of ${statement.employee.firstName} ${statement.employee.lastName}`} style={{ '--tr-brand': statement.appearance.brandColor } as CSSProperties}>
      <Banner statement={statement} />
      <div className="tr-toolbar" role="group" aria-label="Statement options">
        <CurrencySwitch exchange={statement.exchange} side={side} onChange={setSide} />
        {offline && (
          <span className="tr-offline" role="status">
            <WifiOff size={16} aria-hidden="true" /> Offline: the copy saved on this device
          </span>
        )}
        {download && (
          <button type="button" className="tr-download" onClick={() => void download()} disabled={downloading || offline}>
            <Download size={16} aria-hidden="true" /> {downloading ? 'Preparing the PDF…' : 'Download PDF'}
          </button>
        )}
      </div>
      {!embedded && statement.sectionOrder.length > 2 && <SectionNav sections={statement.sectionOrder} />}
      <div className="tr-sections">
        {statement.sectionOrder.map((name) => (
          <div key={name} className="tr-slot">
            {rendered(name)}
          </div>
        ))}
      </div>
      <footer className="tr-footer">
        <p>{rateText(statement.exchange)}.</p>
        <p>
          Figures as of {formatDate(statement.asOf)}. Pay is a year, before tax. This statement is for your information; your contract and the plan documents are what count.
        </p>
      </footer>
    </article>
    </Embedded.Provider>
  );
}
