import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { Section } from '../../ui/Page';
import { useToasts } from '../../ui/Toasts';
import { AXIS_LABELS, MeritMatrix, type RangeText, columnLabels } from './MeritMatrix';
import { VariablesEditor, variablesOf, variablesText } from './VariablesEditor';
import { type GuidelineRange, Problem, type Schemas, bpToInput, parsePercent } from './common';
import { NextStep, type SectionProps } from './sections';
import { ReadOnlyNote, draftOnly, useCycleSave } from './cycleSave';

// ── recommendation logic ─────────────────────────────────────────────────────────────────────

const rangeText = (range: GuidelineRange | null | undefined): RangeText => ({ min: bpToInput(range?.minBp), target: bpToInput(range?.targetBp), max: bpToInput(range?.maxBp) });
function rangeOf(text: RangeText): GuidelineRange | null {
  const minBp = parsePercent(text.min);
  const targetBp = parsePercent(text.target);
  const maxBp = parsePercent(text.max);
  return minBp === null || targetBp === null || maxBp === null ? null : { minBp, targetBp, maxBp };
}

function RangeInputs({ value, onChange, label, compact = false }: { value: RangeText; onChange: (value: RangeText) => void; label: string; compact?: boolean }) {
  const parts: [keyof RangeText, string][] = [
    ['min', 'Min'],
    ['target', 'Target'],
    ['max', 'Max'],
  ];
  return (
    <span className={compact ? 'planning-range compact' : 'planning-range'}>
      {parts.map(([key, word]) => (
        <label key={key}>
          <span className={compact ? 'visually-hidden' : undefined}>{compact ? `${label}: ${word.toLowerCase()} %` : `${word} %`}</span>
          <input inputMode="decimal" value={value[key]} aria-label={compact ? undefined : `${label}: ${word.toLowerCase()} %`} onChange={(event) => onChange({ ...value, [key]: event.target.value })} size={4} />
        </label>
      ))}
    </span>
  );
}

const DEFAULT_THRESHOLDS = { compaRatio: [0.9, 1, 1.1], rangePenetration: [0.25, 0.5, 0.75] } as const;

export function RecommendationSection({ cycle, onSaved }: SectionProps) {
  const { add } = useToasts();
  const logic = cycle.recommendation;
  const scale = cycle.performance.scale;
  const [kind, setKind] = useState(logic.kind);
  const [flat, setFlat] = useState(rangeText(logic.flat ?? { minBp: 0, targetBp: 300, maxBp: 600 }));
  const [axis, setAxis] = useState(logic.matrix?.axis ?? 'compaRatio');
  const [thresholds, setThresholds] = useState((logic.matrix?.thresholds ?? DEFAULT_THRESHOLDS.compaRatio).map(String));
  const [cells, setCells] = useState<Record<string, RangeText>>(() =>
    Object.fromEntries((logic.matrix?.cells ?? []).map((cell) => [`${cell.rating}|${cell.column}`, rangeText(cell)])),
  );
  const [several, setSeveral] = useState(() => variablesText(logic.variables));
  const [useFallback, setUseFallback] = useState(Boolean(logic.fallback));
  const [fallback, setFallback] = useState(rangeText(logic.fallback ?? { minBp: 0, targetBp: 200, maxBp: 400 }));
  const [mode, setMode] = useState(logic.guidelines.mode);
  const [commentRequired, setCommentRequired] = useState(logic.guidelines.commentRequired);
  const [local, setLocal] = useState<string | null>(null);
  const save = useCycleSave((ifMatch, body: Schemas['RecommendationLogic']) =>
    api.PUT('/api/v2/meritCycles/{meritCycleId}/recommendationLogic', { params: { path: { meritCycleId: cycle.id }, header: { 'If-Match': ifMatch } }, body }),
  );
  const draft = draftOnly(cycle);

  const labels = columnLabels(thresholds.map((value) => value || '?'));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setLocal(null);
    const guidelines = { mode, commentRequired };
    const fallbackRange = useFallback ? rangeOf(fallback) : null;
    if (useFallback && !fallbackRange) return setLocal('The fallback needs a min, target and max percentage.');
    let body: Schemas['RecommendationLogic'];
    if (kind === 'flat') {
      const range = rangeOf(flat);
      if (!range) return setLocal('The flat guideline needs a min, target and max percentage.');
      body = { kind, flat: range, guidelines, fallback: fallbackRange };
    } else if (kind === 'variables') {
      const read = variablesOf(several, scale);
      if ('problem' in read) return setLocal(read.problem);
      body = { kind, variables: read.variables, guidelines, fallback: fallbackRange };
    } else {
      const bounds = thresholds.map((value) => Number(value.replace(',', '.')));
      if (bounds.some((value) => !Number.isFinite(value) || thresholds.some((text) => text.trim() === ''))) return setLocal('The matrix needs three thresholds.');
      const matrixCells: NonNullable<Schemas['RecommendationLogic']['matrix']>['cells'] = [];
      for (const rating of scale) {
        for (const column of [1, 2, 3, 4]) {
          const text = cells[`${rating.value}|${column}`];
          if (!text || (!text.min && !text.target && !text.max)) continue;
          const range = rangeOf(text);
          if (!range) return setLocal(`“${rating.label}” at ${AXIS_LABELS[axis].toLowerCase()} ${labels[column - 1]} needs a min, target and max percentage.`);
          matrixCells.push({ rating: rating.value, column, ...range });
        }
      }
      body = { kind, matrix: { axis, thresholds: bounds, cells: matrixCells }, guidelines, fallback: fallbackRange };
    }
    const result = await save.submit(cycle.version, body);
    if (!result.ok) return;
    await onSaved(result.data.data);
    add('success', 'The recommendation logic is saved.');
  }

  return (
    <>
      <Section title="Recommendation logic" id="cycle-recommendation">
        <ReadOnlyNote cycle={cycle} what="The guidelines" />
        <form className="planning-form" aria-label="Recommendation logic" onSubmit={(event) => void submit(event)}>
          <fieldset disabled={!draft} className="planning-plain">
            <fieldset className="radios">
              <legend>Guideline</legend>
              <label className="check">
                <input type="radio" name="kind" checked={kind === 'flat'} onChange={() => setKind('flat')} /> The same for everyone (flat %)
              </label>
              <label className="check">
                <input type="radio" name="kind" checked={kind === 'matrix'} onChange={() => setKind('matrix')} /> A merit matrix (rating × position in the band)
              </label>
              <label className="check">
                <input type="radio" name="kind" checked={kind === 'variables'} onChange={() => setKind('variables')} /> Several variables (rating, band position, time since the last increase)
              </label>
            </fieldset>
            {kind === 'variables' ? (
              <VariablesEditor value={several} onChange={setSeveral} scale={scale} />
            ) : kind === 'flat' ? (
              <fieldset className="planning-plain">
                <legend>Flat guideline</legend>
                <RangeInputs value={flat} onChange={setFlat} label="Flat guideline" />
              </fieldset>
            ) : (
              <>
                <div className="planning-row">
                  <label>
                    Columns by
                    <select
                      value={axis}
                      onChange={(event) => {
                        const next = event.target.value === 'rangePenetration' ? 'rangePenetration' : 'compaRatio';
                        setAxis(next);
                        setThresholds(DEFAULT_THRESHOLDS[next].map(String));
                      }}
                    >
                      <option value="compaRatio">{AXIS_LABELS.compaRatio}</option>
                      <option value="rangePenetration">{AXIS_LABELS.rangePenetration}</option>
                    </select>
                  </label>
                  {thresholds.map((value, index) => (
                    <label key={index}>
                      Threshold {index + 1}
                      <input inputMode="decimal" value={value} onChange={(event) => setThresholds(thresholds.map((item, at) => (at === index ? event.target.value : item)))} size={5} />
                    </label>
                  ))}
                </div>
                <MeritMatrix scale={scale} axis={axis} thresholds={thresholds} cells={cells} onChange={(key, value) => setCells((before) => ({ ...before, [key]: value }))} />
              </>
            )}
            <label className="check">
              <input type="checkbox" checked={useFallback} onChange={(event) => setUseFallback(event.target.checked)} /> A fallback for people without a rating or a band
            </label>
            {useFallback && <RangeInputs value={fallback} onChange={setFallback} label="Fallback" />}
            <div className="planning-row">
              <label>
                Outside the guideline
                <select value={mode} onChange={(event) => setMode(event.target.value === 'enforced' ? 'enforced' : 'advisory')}>
                  <option value="advisory">A warning (advisory)</option>
                  <option value="enforced">An error that blocks submitting (enforced)</option>
                </select>
              </label>
              <label className="check">
                <input type="checkbox" checked={commentRequired} onChange={(event) => setCommentRequired(event.target.checked)} /> Needs a comment saying why
              </label>
            </div>
          </fieldset>
          <Problem message={local} />
          {save.problem}
          {draft && (
            <div className="actions">
              <button type="submit" className="primary" disabled={save.busy}>
                Save recommendation logic
              </button>
            </div>
          )}
        </form>
      </Section>
      <NextStep cycle={cycle} after="recommendations" />
    </>
  );
}
