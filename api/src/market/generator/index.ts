/** The demo market: synthetic participants calibrated to BLS wages. */
import { buildRelease, type MarketRelease } from '../engine/release.js';
import { generateMarket, type GenerateMarketOptions } from './generate.js';

export { familyWageTargets, readBlsOccupations, type BlsOccupation, type FamilyWageTarget } from './bls.js';
export { generateMarket, type GeneratedMarket, type GenerateMarketOptions } from './generate.js';
export { GENERATION_FOREX } from './profiles.js';

/** A deterministic demo release: the same options always give the same release content. */
export function buildDemoRelease(options: GenerateMarketOptions & { id?: string; builtAt?: string }): MarketRelease {
  const market = generateMarket(options);
  return buildRelease(market, {
    id: options.id ?? `demo-${options.seed}-${options.employees}`,
    ...(options.builtAt ? { builtAt: options.builtAt } : {}),
  });
}
