import type { components } from '../contract-types.js';

/** A checklist of first steps (a company's, a person's), stored as JSON on its owner's row. */
export function presentOnboarding(json: string, allSteps: readonly string[]): components['schemas']['Onboarding'] {
  const parsed = JSON.parse(json) as { completedSteps?: string[] };
  const completedSteps = parsed.completedSteps ?? [];
  return { completedSteps, completed: allSteps.every((step) => completedSteps.includes(step)) };
}

/** The stored onboarding JSON with one more step marked done. */
export function withCompletedStep(json: string, step: string): string {
  const steps = new Set((JSON.parse(json) as { completedSteps?: string[] }).completedSteps ?? []);
  steps.add(step);
  return JSON.stringify({ completedSteps: [...steps] });
}
