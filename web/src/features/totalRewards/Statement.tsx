import { Download, WifiOff } from 'lucide-react';
import { type CSSProperties, type ReactNode, useContext, useState } from 'react';
import { StackedBar, colourOf } from '../../ui/charts';
import { formatDate, formatNumber, majorOf } from '../../ui/format';
import { Tooltip } from '../../ui/Tooltip';
import { type CurrencySide, GRANT_NAMES, SECTION_NAV_LABELS, type Schemas, type SectionName, type Statement, showAmount, sideOf } from './model';
import './totalRewards.css';
import { Embedded, Change, Paragraphs, StatementSection, group, inkOn, sectionId } from './StatementParts';
import { Equity, FutureGrants, Simulator } from './StatementEquity';

// The total-rewards statement as an employee reads it: phone first, one column of sections in the
// company's order and colours, every amount in the currency they pick. Charts use the one chart
// theme (the spec's colour groups) and every chart has its numbers as text.

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
