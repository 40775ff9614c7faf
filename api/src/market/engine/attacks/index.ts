import { createHmac } from 'node:crypto';
import { DEFAULT_PRIVACY_RULE } from '../privacy.js';
import { colludersAttack, dominanceAttack } from './colluders.js';
import { countAveragingAttack, countsAttack, reimportAttack } from './counts.js';
import { differencingAttack, releasesAttack, trackerAttack } from './differencing.js';
import { keySearchAttack, reconstructionAttack } from './reconstruction.js';
import type { AttackContext, AttackOutcome, BatteryOptions } from './setup.js';

/**
 * The attack battery against published market figures (docs/market-privacy.md, the threat model),
 * shared by the engine's tests and every release's privacy scorecard. Each attack plants targets in
 * small hand-made markets built with the release's own disclosure key and rule, attacks them once
 * with the protection off (the positive control: the attack must recover its targets, or it proves
 * nothing) and once with it on, and counts the targets recovered within 5%.
 */

export { DOMINANCE_PLANTS } from './colluders.js';
export { MEDIAN_TARGET, PLANTS, SPARSE, type Plant } from './differencing.js';
export { RECOVERY_TOLERANCE, type AttackContext, type AttackId, type AttackOutcome, type BatteryOptions } from './setup.js';

function trialKey(key: Uint8Array, trial: number): Uint8Array {
  return new Uint8Array(createHmac('sha256', key).update(`attack trial ${trial}`).digest());
}

/** Batteries already run in this process, by key, rule and keys tried: the outcome depends on nothing else. */
const batteries = new Map<string, AttackOutcome[]>();

/** Runs every attack of the battery (once per key, rule and number of keys in a process). */
export function runAttackBattery(options: BatteryOptions): AttackOutcome[] {
  const id = `${Buffer.from(options.disclosureKey).toString('hex')} ${JSON.stringify(options.rule ?? DEFAULT_PRIVACY_RULE)} ${options.keys ?? 4}`;
  const known = batteries.get(id);
  if (known) return known.map((outcome) => ({ ...outcome }));
  const outcomes = battery(options);
  batteries.set(id, outcomes);
  return outcomes.map((outcome) => ({ ...outcome }));
}

function battery(options: BatteryOptions): AttackOutcome[] {
  const context: AttackContext = { rule: options.rule ?? DEFAULT_PRIVACY_RULE, keys: Array.from({ length: options.keys ?? 4 }, (_, i) => trialKey(options.disclosureKey, i)) };
  return [differencingAttack(context), trackerAttack(context), releasesAttack(context), reconstructionAttack(context), keySearchAttack(context), colludersAttack(context), dominanceAttack(context), countsAttack(context), countAveragingAttack(context), reimportAttack(context)];
}

/** Whether an outcome holds: its positive control recovered every target and the protected attack none. */
export function attackHolds(outcome: AttackOutcome): boolean {
  if (!outcome.gating) return outcome.controlRecovered === outcome.targets;
  return outcome.controlRecovered === outcome.targets && outcome.recovered === 0;
}
