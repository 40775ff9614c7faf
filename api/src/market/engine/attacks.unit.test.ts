import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runAttackBattery } from './attacks/index.js';

/**
 * The attack battery every release's privacy scorecard runs (engine/attacks/), here with fixed
 * keys: each attack's positive control (the protection off) recovers every target, and with the
 * protection on no target comes out within 5%.
 */
describe('the attack battery', () => {
  const outcomes = runAttackBattery({ disclosureKey: new Uint8Array(createHash('sha256').update('attack battery test').digest()), keys: 3 });
  const of = (attack: string) => outcomes.find((o) => o.attack === attack)!;

  it.each(['differencing', 'tracker', 'releases', 'reconstruction', 'key_search', 'colluders', 'dominance', 'counts', 'count_averaging', 'reimport'])('%s: the control recovers every target, the protected release none within 5%', (attack) => {
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

  it('counts: every tracker pair differenced exactly without protection, none with counts rounded to fives; averages reported', () => {
    const outcome = of('counts');
    expect(outcome.gating).toBe(true);
    expect(outcome.targets).toBe(3 * 9 * 2);
    expect(outcome.note).toMatch(/^0 of 54 single pairs give the exact difference \(of 1\); the average of nine pairs rounds to it in \d of 6/);
  });

  it('count averaging: 255 differenced pairs averaged give the exact 1 without count weights (the control exactly), never with them', () => {
    const outcome = of('count_averaging');
    expect(outcome.gating).toBe(true);
    expect(outcome.targets).toBe(3);
    // Without the records' weights, keyed rounding alone: the average of 255 pairs rounds to the exact difference under every key.
    // The average lands at 1 plus the person's weight, at least 1.25 away (less what rounding leaves over 255 pairs).
    expect(outcome.note).toMatch(/^averages of 255 pairs rounding to the exact 1: 0 of 3 with count weights \(closest (0\.[89]\d|[1-9]\.\d\d) people off\), 3 of 3 without them; a group of five: \d of 3 with them, 3 of 3 without$/);
    expect(outcome.closest).toBeNull();
  });

  it('reimport: a new employee id every release is a new move, and 120 of them averaged land on the pay; kept identities keep one move', () => {
    const outcome = of('reimport');
    expect(outcome.gating).toBe(true);
    expect(outcome.targets).toBe(3);
    // The one move kept: the average is the target's moved pay, 7.5% to 13% off, less the small figure moves.
    expect(outcome.closest!).toBeGreaterThan(0.07);
  });

  it('dominance: both planted cells, each under three keys, read off p90 without the pay-mass checks, withheld with them', () => {
    const outcome = of('dominance');
    expect(outcome.targets).toBe(6);
    expect(outcome.closest).toBeNull();
  });
});
