import { type Unit, formatFull } from './theme';
import './bars.css';

// Light charts for dashboards and tiles: bars drawn in HTML and CSS inside a real table, so the
// numbers are the chart's own text alternative, nothing waits for recharts, and a phone draws them
// at once (offline too). Same theme as every chart: colour groups, number formats, legend.

export interface Bar {
  label: string;
  value: number;
  /** A colour group's colour (`colourOf`), or `NEUTRAL`. */
  colour: string;
}

interface BarListProps {
  /** Names the figure and captions its table. */
  title: string;
  bars: Bar[];
  unit: Unit;
  /** The table's column headers: what each row is, and what its number is. */
  categoryLabel: string;
  valueLabel: string;
}

/** One bar per category, longest = the largest value, each with its number: a histogram or a ranking. */
export function BarList({ title, bars, unit, categoryLabel, valueLabel }: BarListProps) {
  const max = Math.max(1e-9, ...bars.map((bar) => bar.value));
  return (
    <figure className="bar-list" aria-label={title}>
      <table>
        <caption className="visually-hidden">{title}</caption>
        <thead>
          <tr>
            <th scope="col">{categoryLabel}</th>
            <th scope="col" className="number">
              {valueLabel}
            </th>
          </tr>
        </thead>
        <tbody>
          {bars.map((bar) => (
            <tr key={bar.label}>
              <th scope="row">{bar.label}</th>
              <td>
                <div className="bar-cell">
                  <span className="bar-track" aria-hidden="true">
                    <span className="bar-fill" style={{ width: `${(Math.max(0, bar.value) / max) * 100}%`, background: bar.colour }} />
                  </span>
                  <span className="bar-value">{formatFull(bar.value, unit)}</span>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/**
 * The parts of one whole (a pay mix): a stacked bar, and the table of parts as its legend and text
 * alternative; or, with `describedBy`, the id of a list on screen that already says every part (and
 * shows each part's swatch).
 */
export function StackedBar({ title, bars, unit, categoryLabel, valueLabel, describedBy }: BarListProps & { describedBy?: string }) {
  const total = bars.reduce((sum, bar) => sum + Math.max(0, bar.value), 0) || 1;
  const share = (value: number) => new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 }).format(Math.max(0, value) / total);
  return (
    <figure className="stacked-bar-figure" aria-label={title} aria-describedby={describedBy}>
      <div className="stacked-bar" aria-hidden="true">
        {bars.map((bar) => (
          <span key={bar.label} style={{ flexGrow: Math.max(0, bar.value), background: bar.colour }} />
        ))}
      </div>
      {!describedBy && (
      <table className="stacked-bar-legend">
        <caption className="visually-hidden">{title}</caption>
        <thead>
          <tr>
            <th scope="col">{categoryLabel}</th>
            <th scope="col" className="number">
              {valueLabel}
            </th>
            <th scope="col" className="number">
              Share
            </th>
          </tr>
        </thead>
        <tbody>
          {bars.map((bar) => (
            <tr key={bar.label}>
              <th scope="row">
                <span className="legend-key">
                  <span className="swatch" style={{ background: bar.colour }} aria-hidden="true" />
                  {bar.label}
                </span>
              </th>
              <td className="number">{formatFull(bar.value, unit)}</td>
              <td className="number">{share(bar.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      )}
    </figure>
  );
}
