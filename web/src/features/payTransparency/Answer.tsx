import type { components } from '../../../../openapi.d.ts';
import { formatMajor, formatNumber } from '../../ui/format';

type Answer = components['schemas']['PayInformationAnswer'];
type Level = components['schemas']['PayLevel'];

const annual = (value: number, currency: string) => formatMajor(value, currency);
const hourly = (value: number, currency: string) => formatMajor(value, currency, 'minor');

function LevelRow({ label, level, currency, minimum }: { label: string; level: Level | null; currency: string; minimum: number }) {
  if (!level) {
    return (
      <tr>
        <th scope="row">{label}</th>
        <td colSpan={4} className="muted">
          Not shown: fewer than {minimum} people
        </td>
      </tr>
    );
  }
  return (
    <tr>
      <th scope="row">
        {label} <span className="muted small-text">({formatNumber(level.count)})</span>
      </th>
      <td className="numeric">{annual(level.meanAnnual, currency)}</td>
      <td className="numeric">{hourly(level.meanHourly, currency)}</td>
      <td className="numeric">{annual(level.medianAnnual, currency)}</td>
      <td className="numeric">{hourly(level.medianHourly, currency)}</td>
    </tr>
  );
}

/** An answer as the employee reads it (and HR checks it): own pay, the category's averages by sex, the criteria. */
export function AnswerView({ answer, note }: { answer: Answer; note?: string | null }) {
  const { currency } = answer;
  return (
    <div className="pt-answer">
      {note && (
        <div className="pt-note" aria-label="Note from HR">
          <h3>A note from HR</h3>
          <p>{note}</p>
        </div>
      )}
      {answer.own ? (
        <div className="pt-own" aria-label="Your pay level">
          <h3>Your pay level</h3>
          <p>
            <strong data-testid="own-annual">{annual(answer.own.annual, currency)}</strong> a year · <strong data-testid="own-hourly">{hourly(answer.own.hourly, currency)}</strong> an hour
          </p>
        </div>
      ) : null}
      {answer.categoryName ? (
        <div className="pt-category">
          <h3>Average pay in your category</h3>
          <p className="muted small-text">{answer.categoryName}</p>
          <div className="pt-table-wrap" role="region" aria-label="Average pay levels, scrolls sideways" tabIndex={0}>
            <table className="pt-table" aria-label="Average pay levels by sex">
              <thead>
                <tr>
                  <th scope="col">Group</th>
                  <th scope="col" className="numeric">Mean a year</th>
                  <th scope="col" className="numeric">Mean an hour</th>
                  <th scope="col" className="numeric">Median a year</th>
                  <th scope="col" className="numeric">Median an hour</th>
                </tr>
              </thead>
              <tbody>
                <LevelRow label="Women" level={answer.bySex.female} currency={currency} minimum={answer.publicationMinimum} />
                <LevelRow label="Men" level={answer.bySex.male} currency={currency} minimum={answer.publicationMinimum} />
              </tbody>
            </table>
          </div>
        </div>
      ) : null}
      {answer.withheld && <p className="pt-withheld">{answer.withheld}</p>}
      <div className="pt-criteria">
        <h3>How pay and progression are set</h3>
        <p className="pt-criteria-text">{answer.criteria}</p>
      </div>
      <details className="pt-method">
        <summary>How these figures are worked out</summary>
        <p className="small-text">{answer.method}</p>
      </details>
    </div>
  );
}
