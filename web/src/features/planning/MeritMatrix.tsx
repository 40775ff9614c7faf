import { useId, useState } from 'react';
import { NARROW, useMediaQuery } from '../../ui/hooks';

/** A cell's guideline as typed: min, target and max % (empty while not filled in). */
export interface RangeText {
  min: string;
  target: string;
  max: string;
}

export const EMPTY_RANGE: RangeText = { min: '', target: '', max: '' };

const PARTS: [keyof RangeText, string][] = [
  ['min', 'Min'],
  ['target', 'Target'],
  ['max', 'Max'],
];

export const AXIS_LABELS = { compaRatio: 'Compa-ratio', rangePenetration: 'Range penetration' } as const;
export type MatrixAxis = keyof typeof AXIS_LABELS;

/** The four columns by the thresholds, in words: "below 0.9", "0.9 to 1", "1 to 1.1", "1.1 and above". */
export function columnLabels(thresholds: readonly (number | string)[]): string[] {
  const [a, b, c] = thresholds.map((value) => String(value));
  return [`below ${a}`, `${a} to ${b}`, `${b} to ${c}`, `${c} and above`];
}

interface Rating {
  value: string;
  label: string;
}

interface MatrixProps {
  /** The cycle's ratings, lowest first; the matrix shows the highest on top. */
  scale: readonly Rating[];
  axis: MatrixAxis;
  thresholds: readonly string[];
  /** By `rating|column` (columns 1–4). */
  cells: Readonly<Record<string, RangeText>>;
  onChange: (key: string, value: RangeText) => void;
}

/** One cell's three boxes, each with its word shown and its rating and column in its name. */
function CellInputs({ where, value, onChange }: { where: string; value: RangeText; onChange: (value: RangeText) => void }) {
  return (
    <span className="matrix-cell">
      {PARTS.map(([key, word]) => (
        <label key={key} className="matrix-input">
          <span className="matrix-word" aria-hidden="true">
            {word} %
          </span>
          <input inputMode="decimal" value={value[key]} aria-label={`${where}: ${word.toLowerCase()} %`} onChange={(event) => onChange({ ...value, [key]: event.target.value })} />
        </label>
      ))}
    </span>
  );
}

const cellKey = (rating: Rating, column: number) => `${rating.value}|${column}`;
const filledIn = (cells: MatrixProps['cells'], rating: Rating) => [1, 2, 3, 4].filter((column) => Object.values(cells[cellKey(rating, column)] ?? EMPTY_RANGE).some(Boolean)).length;

/**
 * The merit matrix: rating × position in the range, a min, target and max % in each cell. A table
 * on wider screens; on a phone one rating at a time, its four columns as cards.
 */
export function MeritMatrix({ scale, axis, thresholds, cells, onChange }: MatrixProps) {
  const narrow = useMediaQuery(NARROW);
  const labels = columnLabels(thresholds.map((value) => value || '?'));
  const axisWord = AXIS_LABELS[axis];
  const where = (rating: Rating, column: number) => `${rating.label}, ${axisWord.toLowerCase()} ${labels[column - 1]}`;
  const ratings = [...scale].reverse();
  if (narrow) return <OneRatingAtATime ratings={ratings} axisWord={axisWord} labels={labels} cells={cells} onChange={onChange} where={where} />;
  return (
    <div className="table-scroll merit-matrix" role="region" aria-label="Merit matrix" tabIndex={0}>
      <table className="planning-matrix">
        <caption>
          Merit increase guideline, min, target and max %, by rating (rows) and {axisWord.toLowerCase()} (columns)
        </caption>
        <thead>
          <tr>
            <th scope="col">Rating</th>
            {labels.map((label, index) => (
              <th key={index} scope="col">
                <span className="matrix-axis">{axisWord}</span> {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {ratings.map((rating) => (
            <tr key={rating.value}>
              <th scope="row">{rating.label}</th>
              {[1, 2, 3, 4].map((column) => (
                <td key={column}>
                  <CellInputs where={where(rating, column)} value={cells[cellKey(rating, column)] ?? EMPTY_RANGE} onChange={(value) => onChange(cellKey(rating, column), value)} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface NarrowProps {
  ratings: Rating[];
  axisWord: string;
  labels: string[];
  cells: MatrixProps['cells'];
  onChange: MatrixProps['onChange'];
  where: (rating: Rating, column: number) => string;
}

function OneRatingAtATime({ ratings, axisWord, labels, cells, onChange, where }: NarrowProps) {
  const [chosen, setChosen] = useState(ratings[0]?.value ?? '');
  const id = useId();
  const rating = ratings.find((entry) => entry.value === chosen) ?? ratings[0];
  if (!rating) return null;
  return (
    <div className="merit-matrix-cards" role="group" aria-label="Merit matrix">
      <label htmlFor={`${id}-rating`}>Rating to set</label>
      <select id={`${id}-rating`} value={rating.value} onChange={(event) => setChosen(event.target.value)}>
        {ratings.map((entry) => (
          <option key={entry.value} value={entry.value}>
            {entry.label} ({filledIn(cells, entry)} of 4 set)
          </option>
        ))}
      </select>
      <ul className="matrix-cards">
        {[1, 2, 3, 4].map((column) => (
          <li key={column}>
            <fieldset className="matrix-card">
              <legend>
                {axisWord} {labels[column - 1]}
              </legend>
              <CellInputs where={where(rating, column)} value={cells[cellKey(rating, column)] ?? EMPTY_RANGE} onChange={(value) => onChange(cellKey(rating, column), value)} />
            </fieldset>
          </li>
        ))}
      </ul>
    </div>
  );
}
