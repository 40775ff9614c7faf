import { Plus, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { type Schemas, bpToInput, parsePercent } from './common';

/*
 * The several-variables recommendation as a form: a starting %, then one factor per variable (the
 * rating's adjustment per rating; compa-ratio, range penetration or months since the last increase
 * by steps from … to), each weighted; the target is their sum, capped; min and max around it.
 */

type Variables = Schemas['RecommendationVariables'];
type Factor = Schemas['RecommendationFactor'];
type Variable = Factor['variable'];
type Scale = Schemas['PerformanceCycleConfig']['scale'];

interface StepText {
  from: string;
  to: string;
  adjustment: string;
}
interface FactorText {
  variable: Variable;
  weight: string;
  ratings: Record<string, string>;
  steps: StepText[];
}
export interface VariablesText {
  base: string;
  factors: FactorText[];
  capMin: string;
  capMax: string;
  below: string;
  above: string;
}

const VARIABLE_LABELS: Record<Variable, string> = {
  rating: 'Performance rating',
  compaRatio: 'Compa-ratio',
  rangePenetration: 'Range penetration',
  monthsSinceLastIncrease: 'Months since the last increase',
};
const VALUE_HINTS: Record<Exclude<Variable, 'rating'>, string> = {
  compaRatio: 'base ÷ band mid, e.g. 0.9',
  rangePenetration: 'a fraction of the band, e.g. 0.25 for 25%',
  monthsSinceLastIncrease: 'whole months to the effective date',
};
const VARIABLES = Object.keys(VARIABLE_LABELS) as Variable[];

const numberText = (value: number | undefined): string => (value === undefined ? '' : String(value));

export function variablesText(variables: Variables | undefined): VariablesText {
  if (!variables) {
    return {
      base: '0',
      factors: [{ variable: 'rating', weight: '100', ratings: {}, steps: [] }],
      capMin: '',
      capMax: '',
      below: '1',
      above: '1',
    };
  }
  return {
    base: bpToInput(variables.baseBp),
    factors: variables.factors.map((factor) => ({
      variable: factor.variable,
      weight: String(factor.weightPercent),
      ratings: Object.fromEntries((factor.ratings ?? []).map((entry) => [entry.rating, bpToInput(entry.adjustmentBp)])),
      steps: (factor.steps ?? []).map((step) => ({ from: numberText(step.from), to: numberText(step.to), adjustment: bpToInput(step.adjustmentBp) })),
    })),
    capMin: bpToInput(variables.capMinBp),
    capMax: bpToInput(variables.capMaxBp),
    below: bpToInput(variables.belowTargetBp),
    above: bpToInput(variables.aboveTargetBp),
  };
}

const boundOf = (text: string): number | undefined | null => {
  if (text.trim() === '') return undefined;
  const value = Number(text.replace(',', '.'));
  return Number.isFinite(value) ? value : null;
};

/** The form as the contract's shape, or what is missing in words. */
export function variablesOf(text: VariablesText, scale: Scale): { variables: Variables } | { problem: string } {
  const baseBp = parsePercent(text.base);
  if (baseBp === null) return { problem: 'Several variables need a starting percentage (0 for none).' };
  const belowTargetBp = parsePercent(text.below);
  const aboveTargetBp = parsePercent(text.above);
  if (belowTargetBp === null || aboveTargetBp === null || belowTargetBp < 0 || aboveTargetBp < 0) return { problem: 'Say how far below and above the target the guideline runs (in %).' };
  const factors: Factor[] = [];
  for (const [index, factor] of text.factors.entries()) {
    const name = `Factor ${index + 1} (${VARIABLE_LABELS[factor.variable].toLowerCase()})`;
    const weightPercent = Number(factor.weight);
    if (!Number.isInteger(weightPercent) || weightPercent < 0) return { problem: `${name} needs a weight in whole percent (100 = as written).` };
    if (factor.variable === 'rating') {
      const ratings: NonNullable<Factor['ratings']> = [];
      for (const rating of scale) {
        const typed = factor.ratings[rating.value] ?? '';
        if (typed.trim() === '') continue;
        const adjustmentBp = parsePercent(typed);
        if (adjustmentBp === null) return { problem: `${name}: “${rating.label}” is not a percentage.` };
        ratings.push({ rating: rating.value, adjustmentBp });
      }
      if (!ratings.length) return { problem: `${name} needs an adjustment for at least one rating.` };
      factors.push({ variable: 'rating', weightPercent, ratings });
      continue;
    }
    const steps: NonNullable<Factor['steps']> = [];
    for (const [at, step] of factor.steps.entries()) {
      const from = boundOf(step.from);
      const to = boundOf(step.to);
      const adjustmentBp = parsePercent(step.adjustment);
      if (from === null || to === null || adjustmentBp === null) return { problem: `${name}, step ${at + 1} needs numbers (from and to may stay empty) and an adjustment %.` };
      steps.push({ ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}), adjustmentBp });
    }
    if (!steps.length) return { problem: `${name} needs at least one step.` };
    factors.push({ variable: factor.variable, weightPercent, steps });
  }
  if (!factors.length) return { problem: 'Several variables need at least one factor.' };
  const capMinBp = parsePercent(text.capMin);
  const capMaxBp = parsePercent(text.capMax);
  return {
    variables: { baseBp, factors, ...(capMinBp !== null ? { capMinBp } : {}), ...(capMaxBp !== null ? { capMaxBp } : {}), belowTargetBp, aboveTargetBp },
  };
}

/** A field's words, named after its factor for screen readers and tests ("Factor 2: Weight %"), shown without it. */
function Named({ factor, children }: { factor: string; children: string }) {
  return (
    <>
      <span className="visually-hidden">{factor}: </span>
      {children}
    </>
  );
}

function FactorEditor({ factor, index, scale, onChange, onRemove }: { factor: FactorText; index: number; scale: Scale; onChange: (factor: FactorText) => void; onRemove: () => void }) {
  const label = `Factor ${index + 1}`;
  const idPrefix = `${useId()}factor`;
  const hintId = `${idPrefix}-hint`;
  const setStep = (at: number, key: keyof StepText, text: string) => onChange({ ...factor, steps: factor.steps.map((item, i) => (i === at ? { ...item, [key]: text } : item)) });
  return (
    <fieldset className="planning-plain planning-factor">
      <legend>
        {label}: {VARIABLE_LABELS[factor.variable]}
      </legend>
      <div className="planning-row">
        {/* Beside its select, not around it: a label around a select also reads out the option chosen. */}
        <div className="planning-field">
          <label htmlFor={`${idPrefix}-variable`}>
            <Named factor={label}>Variable</Named>
          </label>
          <select id={`${idPrefix}-variable`} value={factor.variable} onChange={(event) => onChange({ ...factor, variable: event.target.value as Variable })}>
            {VARIABLES.map((variable) => (
              <option key={variable} value={variable}>
                {VARIABLE_LABELS[variable]}
              </option>
            ))}
          </select>
        </div>
        <label>
          <Named factor={label}>Weight %</Named>
          <input inputMode="numeric" value={factor.weight} size={4} aria-describedby={`${hintId}-weight`} onChange={(event) => onChange({ ...factor, weight: event.target.value })} />
        </label>
        <button type="button" className="small" onClick={onRemove}>
          <Trash2 size={16} aria-hidden="true" /> Remove <span className="visually-hidden">{label.toLowerCase()}</span>
        </button>
      </div>
      <p className="muted small-text" id={`${hintId}-weight`}>
        100 counts the adjustment as written, 50 half of it.
      </p>
      {factor.variable === 'rating' ? (
        <div className="planning-row">
          {[...scale].reverse().map((rating) => (
            <label key={rating.value}>
              <Named factor={label}>{`${rating.label} %`}</Named>
              <input inputMode="decimal" size={4} value={factor.ratings[rating.value] ?? ''} onChange={(event) => onChange({ ...factor, ratings: { ...factor.ratings, [rating.value]: event.target.value } })} />
            </label>
          ))}
        </div>
      ) : (
        <>
          <p className="muted small-text" id={hintId}>
            Steps count from “from” (included) up to “to” (not included); the first that holds the value adds its %. Values: {VALUE_HINTS[factor.variable]}.
          </p>
          {factor.steps.length > 0 && (
            <ol className="planning-steps" aria-label={`Steps of ${label.toLowerCase()}`}>
              {factor.steps.map((step, at) => (
                <li className="planning-row" key={at}>
                  <label>
                    <Named factor={label}>{`Step ${at + 1} from`}</Named>
                    <input inputMode="decimal" size={5} value={step.from} aria-describedby={hintId} onChange={(event) => setStep(at, 'from', event.target.value)} />
                  </label>
                  <label>
                    <Named factor={label}>{`Step ${at + 1} to`}</Named>
                    <input inputMode="decimal" size={5} value={step.to} aria-describedby={hintId} onChange={(event) => setStep(at, 'to', event.target.value)} />
                  </label>
                  <label>
                    <Named factor={label}>{`Step ${at + 1} adds %`}</Named>
                    <input inputMode="decimal" size={4} value={step.adjustment} onChange={(event) => setStep(at, 'adjustment', event.target.value)} />
                  </label>
                  <button type="button" className="small ghost icon-button" aria-label={`Remove step ${at + 1} of ${label.toLowerCase()}`} onClick={() => onChange({ ...factor, steps: factor.steps.filter((_, i) => i !== at) })}>
                    <Trash2 size={18} aria-hidden="true" />
                  </button>
                </li>
              ))}
            </ol>
          )}
          <button type="button" className="small" onClick={() => onChange({ ...factor, steps: [...factor.steps, { from: '', to: '', adjustment: '' }] })}>
            <Plus size={16} aria-hidden="true" /> Add a step to {label.toLowerCase()}
          </button>
        </>
      )}
    </fieldset>
  );
}

export function VariablesEditor({ value, onChange, scale }: { value: VariablesText; onChange: (value: VariablesText) => void; scale: Scale }) {
  const field = (key: 'base' | 'capMin' | 'capMax' | 'below' | 'above', label: string) => (
    <label>
      {label}
      <input inputMode="decimal" size={4} value={value[key]} onChange={(event) => onChange({ ...value, [key]: event.target.value })} />
    </label>
  );
  return (
    <fieldset className="planning-plain">
      <legend>Several variables</legend>
      <p className="muted small-text">Target = starting % + each factor’s adjustment × its weight, held within the caps; a variable someone has no value for (no rating, no band) adds nothing.</p>
      <div className="planning-row">{field('base', 'Starting %')}</div>
      {value.factors.map((factor, index) => (
        <FactorEditor
          key={index}
          factor={factor}
          index={index}
          scale={scale}
          onChange={(next) => onChange({ ...value, factors: value.factors.map((item, at) => (at === index ? next : item)) })}
          onRemove={() => onChange({ ...value, factors: value.factors.filter((_, at) => at !== index) })}
        />
      ))}
      {value.factors.length < 10 && (
        <button
          type="button"
          className="small"
          onClick={() => onChange({ ...value, factors: [...value.factors, { variable: VARIABLES.find((variable) => !value.factors.some((factor) => factor.variable === variable)) ?? 'compaRatio', weight: '100', ratings: {}, steps: [] }] })}
        >
          <Plus size={16} aria-hidden="true" /> Add a factor
        </button>
      )}
      <div className="planning-row">
        {field('capMin', 'Target at least %')}
        {field('capMax', 'Target at most %')}
        {field('below', 'Min: % below target')}
        {field('above', 'Max: % above target')}
      </div>
    </fieldset>
  );
}
