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

  it.each(['differencing', 'tracker', 'releases', 'reconstruction', 'key_search'])('%s: the control recovers every target, the protected release none within 5%', (attack) => {
    const outcome = of(attack);
    expect(outcome.targets).toBeGreaterThan(0);
    expect(outcome.controlRecovered).toBe(outcome.targets);
    expect(outcome.recovered).toBe(0);
    if (attack === 'differencing') expect(outcome.confirmed ?? 0).toBe(0);
  });

  it('colluders who know every record but the target: measured, not gating (what is still not defended)', () => {
    const outcome = of('colluders');
    expect(outcome.gating).toBe(false);
    expect(outcome.controlRecovered).toBe(outcome.targets);
    // Without moves the attack leaves exactly the target's pay; with them it leaves a range.
    expect(outcome.closest).not.toBe(0);
  });

  it('counts: the control gives the exact difference, perturbed counts do not always', () => {
    const outcome = of('counts');
    expect(outcome.controlRecovered).toBe(outcome.targets);
  });
});
