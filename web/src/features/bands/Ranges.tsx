import { type FormEvent, useState } from 'react';
import { type VersionedWrite, useVersionedSave } from '../../api/queries';
import { Modal } from '../../ui/Modal';
import { useToasts } from '../../ui/Toasts';
import { type Money, Problem, type Schemas, formatMoney, formatNumber, refreshBands, toMajorText, toMinor } from './common';

type Ranges = Schemas['BandRanges'];

/** A band's ranges in words ("Bonus 15% (10–20%) · Variable $22,500 · Equity 800–1,200 shares"); '' when it has none. */
export function rangesText(ranges: Ranges | null | undefined, currency: string): string {
  if (!ranges) return '';
  const parts: string[] = [];
  const bonus = ranges.bonusTargetPercent;
  if (bonus) parts.push(`Bonus ${bonus.target}%${bonus.min !== undefined && bonus.min !== null && bonus.max !== undefined && bonus.max !== null ? ` (${bonus.min}–${bonus.max}%)` : ''}`);
  if (ranges.variableTarget) parts.push(`Variable ${formatMoney(ranges.variableTarget)}`);
  const equity = ranges.equity;
  if (equity) {
    parts.push(
      equity.unit === 'shares'
        ? `Equity ${formatNumber(equity.min)}–${formatNumber(equity.max)} shares`
        : `Equity ${formatMoney({ amount: equity.min, currency })}–${formatMoney({ amount: equity.max, currency })}${equity.percentile ? ` (p${equity.percentile})` : ''}`,
    );
  }
  return parts.join(' · ');
}

interface RangesDraft {
  bonusTarget: string;
  bonusMin: string;
  bonusMax: string;
  variable: string;
  equityUnit: 'value' | 'shares';
  equityMin: string;
  equityMid: string;
  equityMax: string;
}

function draftOf(ranges: Ranges | null, currency: string): RangesDraft {
  const equity = ranges?.equity;
  const equityText = (value: number | undefined) => (value === undefined ? '' : equity?.unit === 'shares' ? String(value) : toMajorText({ amount: value, currency }));
  return {
    bonusTarget: ranges?.bonusTargetPercent ? String(ranges.bonusTargetPercent.target) : '',
    bonusMin: ranges?.bonusTargetPercent?.min?.toString() ?? '',
    bonusMax: ranges?.bonusTargetPercent?.max?.toString() ?? '',
    variable: ranges?.variableTarget ? toMajorText(ranges.variableTarget) : '',
    equityUnit: equity?.unit ?? 'value',
    equityMin: equityText(equity?.min),
    equityMid: equityText(equity?.mid),
    equityMax: equityText(equity?.max),
  };
}

/** What was typed as the contract's ranges; a message when something is not a number. */
function rangesOf(draft: RangesDraft, currency: string, kept: Ranges | null): Ranges | string {
  const ranges: Ranges = {};
  const percent = (text: string) => (text.trim() === '' ? null : Number(text));
  const target = percent(draft.bonusTarget);
  const [bonusMin, bonusMax] = [percent(draft.bonusMin), percent(draft.bonusMax)];
  if ([target, bonusMin, bonusMax].some((value) => value !== null && !Number.isFinite(value))) return 'Enter the bonus percentages as numbers.';
  if (target !== null) ranges.bonusTargetPercent = { target, ...(bonusMin !== null ? { min: bonusMin } : {}), ...(bonusMax !== null ? { max: bonusMax } : {}) };
  if (draft.variable.trim()) {
    const amount = toMinor(draft.variable, currency);
    if (amount === null) return 'Enter the variable pay target as an amount.';
    ranges.variableTarget = { amount, currency };
  }
  const texts = [draft.equityMin, draft.equityMid, draft.equityMax];
  if (texts.some((text) => text.trim())) {
    const values = texts.map((text) => (draft.equityUnit === 'shares' ? (/^\d+$/.test(text.trim()) ? Number(text.trim()) : null) : toMinor(text, currency)));
    const [min, mid, max] = values;
    if (min === null || mid === null || max === null || min === undefined || mid === undefined || max === undefined) return 'Enter the equity minimum, midpoint and maximum.';
    ranges.equity = { unit: draft.equityUnit, min, mid, max, percentile: draft.equityUnit === 'value' && kept?.equity?.unit === 'value' && kept.equity.mid === mid ? (kept.equity.percentile ?? null) : null };
  }
  return ranges;
}

interface RangesDialogProps {
  title: string;
  currency: string;
  band: { version: number; min: Money; mid: Money; max: Money; ranges: Ranges | null };
  write: VersionedWrite<[Schemas['BandInput']], unknown>;
  onClose: () => void;
}

/** A band's variable pay, bonus target and equity ranges, saved with the band at the version read. */
export function RangesDialog({ title, currency, band, write, onClose }: RangesDialogProps) {
  const { add } = useToasts();
  const [draft, setDraft] = useState<RangesDraft>(() => draftOf(band.ranges, currency));
  const [problem, setProblem] = useState<string | null>(null);
  const { save, busy } = useVersionedSave(write);
  const set = (key: keyof RangesDraft) => (event: { target: { value: string } }) => setDraft({ ...draft, [key]: event.target.value });
  async function submit(event: FormEvent) {
    event.preventDefault();
    const ranges = rangesOf(draft, currency, band.ranges);
    if (typeof ranges === 'string') return setProblem(ranges);
    const result = await save(band.version, { min: band.min, mid: band.mid, max: band.max, ranges: Object.keys(ranges).length ? ranges : null });
    if (!result.ok) return setProblem(result.message);
    add('success', `Saved the ranges of ${title}.`);
    await refreshBands();
    onClose();
  }
  return (
    <Modal
      title={`Ranges of ${title}`}
      onClose={onClose}
      footer={
        <>
          <button type="submit" form="bands-ranges-form" className="primary" disabled={busy}>
            Save ranges
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </>
      }
    >
      <form id="bands-ranges-form" className="bands-ranges-form" onSubmit={(event) => void submit(event)}>
        <fieldset>
          <legend>Bonus target (% of base)</legend>
          <label>
            Target %
            <input inputMode="decimal" value={draft.bonusTarget} onChange={set('bonusTarget')} />
          </label>
          <label>
            Min %
            <input inputMode="decimal" value={draft.bonusMin} onChange={set('bonusMin')} />
          </label>
          <label>
            Max %
            <input inputMode="decimal" value={draft.bonusMax} onChange={set('bonusMax')} />
          </label>
        </fieldset>
        <label>
          Variable pay target ({currency})
          <input inputMode="decimal" value={draft.variable} onChange={set('variable')} />
        </label>
        <fieldset>
          <legend>Equity grant range</legend>
          <label>
            Unit
            <select value={draft.equityUnit} onChange={(event) => setDraft({ ...draft, equityUnit: event.target.value === 'shares' ? 'shares' : 'value' })}>
              <option value="value">Value ({currency})</option>
              <option value="shares">Shares</option>
            </select>
          </label>
          <label>
            Equity min
            <input inputMode="decimal" value={draft.equityMin} onChange={set('equityMin')} />
          </label>
          <label>
            Equity mid
            <input inputMode="decimal" value={draft.equityMid} onChange={set('equityMid')} />
          </label>
          <label>
            Equity max
            <input inputMode="decimal" value={draft.equityMax} onChange={set('equityMax')} />
          </label>
        </fieldset>
        {problem && <Problem message={problem} />}
      </form>
    </Modal>
  );
}