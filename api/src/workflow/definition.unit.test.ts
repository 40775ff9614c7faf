import { describe, expect, it } from 'vitest';
import { type ActionOf, type StateOf, defineWorkflow } from './definition.js';
import { sampleCycle } from './test/sampleCycle.js';

describe('declaring a workflow', () => {
  it('names the state and the action when a transition is not declared', () => {
    expect(sampleCycle.transitionFrom('approved', 'pause')).toBeUndefined();
    expect(sampleCycle.refusal('approved', 'pause')).toBe('An approved cycle cannot be paused.');
    expect(sampleCycle.refusal('not_started', 'approve')).toBe('A not started cycle cannot be approved.');
    expect(sampleCycle.transitionFrom('paused', 'close')?.to).toBe('closed');
    expect(sampleCycle.transitionsFrom('active').map((t) => t.action)).toEqual(['pause', 'approve']);
  });

  it('falls back to the action name where no past tense is given, and to readable state names', () => {
    const offer = defineWorkflow({
      name: 'offer',
      states: ['draft', 'sent', 'accepted'],
      labels: { sent: 'already sent' },
      initial: 'draft',
      transitions: [{ action: 'send', from: ['draft'], to: 'sent' }, { action: 'accept', from: ['sent'], to: 'accepted' }],
    });
    expect(offer.refusal('sent', 'send')).toBe('An already sent offer cannot take the action “send”.');
    expect(offer.isState('sent')).toBe(true);
    expect(offer.isState('withdrawn')).toBe(false);
    expect(offer.actions).toEqual(['send', 'accept']);
  });

  it('refuses a contradictory table when it is declared', () => {
    expect(() =>
      defineWorkflow({ name: 'w', states: ['a', 'b'], initial: 'a', transitions: [{ action: 'go', from: ['a'], to: 'b' }, { action: 'go', from: ['a'], to: 'a' }] }),
    ).toThrow(/go is declared twice from a/);
    expect(() => defineWorkflow({ name: 'w', states: ['a', 'a'], initial: 'a', transitions: [] })).toThrow(/declared twice/);
    expect(() => defineWorkflow({ name: 'w', states: ['a'], initial: 'a', transitions: [{ action: 'go', from: [], to: 'a' }] })).toThrow(/starts from no state/);
  });

  it('types states and actions as the declared literals (checked by tsc)', () => {
    const state: StateOf<typeof sampleCycle> = 'paused';
    const action: ActionOf<typeof sampleCycle> = 'reopen';
    // @ts-expect-error not a state of the cycle
    const notAState: StateOf<typeof sampleCycle> = 'draft';
    // @ts-expect-error not an action of the cycle
    const notAnAction: ActionOf<typeof sampleCycle> = 'launch';
    // And at run time for callers the compiler did not see:
    // @ts-expect-error transitions name declared states only
    expect(() => defineWorkflow({ name: 'w', states: ['a', 'b'], initial: 'a', transitions: [{ action: 'go', from: ['a'], to: 'c' }] })).toThrow(/names c/);
    // @ts-expect-error the initial state is a declared one
    expect(() => defineWorkflow({ name: 'w', states: ['a', 'b'], initial: 'z', transitions: [] })).toThrow(/initial state z/);
    expect([state, action, notAState, notAnAction]).toHaveLength(4);
  });
});
