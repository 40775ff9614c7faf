import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runAttackBattery } from './attacks.js';

/**
 * The attack battery every release's privacy scorecard runs (engine/attacks.ts), here with fixed
 * keys: each attack's positive control (the protection off) recovers every target, and with the
 * protection on no target comes out within 5%.
 */
describe('the attack battery', () => {
  const outcomes = runAttackBattery({ disclosureKey: new Uint8Array(createHash('sha256').update('attack battery test').digest()), keys: 3 });
  const of = (attack: string) => outcomes.find((o) => o.attack === attack)!;

  it.each(['differencing', 'tracker', 'releases', 'reconstruction', 'key_search', 'colluders'])('%s: the control recovers every target, the protected release none within 5%', (attack) => {
    const outcome = of(attack);
    expect(outcome.targets).toBeGreaterThan(0);
    expect(outcome.controlRecovered).toBe(outcome.targets);
    expect(outcome.recovered).toBe(0);
    if (attack === 'differencing') expect(outcome.confirmed ?? 0).toBe(0);
  });

  it('colluders who know every record but the target gate the scorecard, and report their best fit beside a blind guess', () => {
    const outcome = of('colluders');
    expect(outcome.gating).toBe(true);
    expect(outcome.targets).toBe(3);
    expect(outcome.note).toMatch(/^best least-squares fit within 5% in \d of 3 \(closest [\d.]+%\), against \d of 3 for the mean/);
  });

  it('counts: the control gives the exact difference, perturbed counts do not always', () => {
    const outcome = of('counts');
    expect(outcome.controlRecovered).toBe(outcome.targets);
  });
});
