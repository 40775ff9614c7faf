import { buildRelease, emptyMarket, randomDisclosureKey, registerDisclosureKey, type MarketRelease, type ReleaseUtility } from './engine/index.js';
import { generateMarket } from './generator/index.js';
import { startThread } from '../threads/start.js';
import { mergeContributions, NO_CONTRIBUTION, type Contribution } from './participation/contribution.js';
import { screenContribution, type Screening, type ScreeningOptions } from './participation/plausibility.js';

/** Everything that determines a release's content: the generator's parameters and the contributions. */
export interface ReleaseRecipe {
  id: string;
  builtAt: string;
  seed: number;
  records: number;
  contribution: Contribution;
  /** A new build screens the contribution (participation/plausibility.ts); a rebuild takes the stored one as it is. */
  screening?: ScreeningOptions;
  /** The disclosure key (engine/disclosure/): the server's, derived from its secrets key; random when absent. */
  disclosureKey?: Uint8Array;
  /**
   * Reference rates: given, the build thread also measures the release's utility for its privacy
   * scorecard (a second of work on 150,000 records that would otherwise stall the server's thread).
   */
  forex?: Readonly<Record<string, number>>;
}

/** A release, and what the plausibility checks held back from it (null when the recipe asked for none). */
export interface ScreenedBuild {
  release: MarketRelease;
  screening: Screening | null;
  /** The scorecard's utility, measured on the build thread when the recipe gave reference rates. */
  utility?: ReleaseUtility;
}

export type BuildProgress = (fraction: number, step: string) => void;

export const NOTHING_TO_BUILD = 'A release of participants alone needs participants’ records, and no opted-in company has any the market can place';

/** Builds a release on the calling thread (the build thread itself, and the benchmark). */
export function buildInProcess(recipe: ReleaseRecipe, onProgress: BuildProgress = () => undefined): MarketRelease {
  return buildScreened(recipe, onProgress).release;
}

/** Builds a release, screening the contribution first when the recipe says so (beside the generated market it joins). */
export function buildScreened(recipe: ReleaseRecipe, onProgress: BuildProgress = () => undefined): ScreenedBuild {
  onProgress(0, recipe.records > 0 ? 'generating the market' : 'taking participants’ records alone');
  // No generated records: a release of participants alone, nothing in it demo.
  const generated = recipe.records > 0 ? generateMarket({ seed: recipe.seed, employees: recipe.records }) : emptyMarket();
  const screening = recipe.screening ? screenContribution(recipe.contribution ?? NO_CONTRIBUTION, { ...recipe.screening, reference: generated }) : null;
  const market = mergeContributions(generated, screening?.contribution ?? recipe.contribution ?? NO_CONTRIBUTION);
  if (market.employees.count === 0) throw new Error(NOTHING_TO_BUILD);
  const release = buildRelease(market, {
    id: recipe.id,
    builtAt: recipe.builtAt,
    disclosureKey: recipe.disclosureKey,
    onProgress: (fraction, step) => onProgress(0.4 + 0.6 * fraction, step),
  });
  return { release, screening };
}

/** Messages from the build thread. */
export type BuildMessage =
  | { kind: 'progress'; fraction: number; step: string }
  | { kind: 'done'; release: MarketRelease; screening: Screening | null; utility?: ReleaseUtility }
  | { kind: 'failed'; message: string };

/** Typed arrays are frozen by reference only: freezing one with elements throws. */
function freezeDeep<T>(value: T): T {
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  for (const inner of Object.values(value)) freezeDeep(inner);
  return Object.freeze(value);
}

/** Every buffer under a value, once, so posting it moves the memory instead of copying it. */
export function buffersOf(value: unknown, found = new Set<ArrayBuffer>()): ArrayBuffer[] {
  if (value === null || typeof value !== 'object') return [...found];
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer) found.add(value.buffer);
    return [...found];
  }
  for (const inner of Object.values(value)) buffersOf(inner, found);
  return [...found];
}

/**
 * Builds a release on a worker thread, so the API keeps answering while a million records are
 * generated and sorted; the finished columns are moved back, not copied.
 */
export function buildInThread(recipe: ReleaseRecipe, onProgress: BuildProgress = () => undefined): Promise<MarketRelease> {
  return buildScreenedInThread(recipe, onProgress).then((built) => built.release);
}

/** buildInThread with what the plausibility checks held back (a new build's recipe asks for them). */
export function buildScreenedInThread(given: ReleaseRecipe, onProgress: BuildProgress = () => undefined): Promise<ScreenedBuild> {
  // The thread keys the records with it; this thread needs it again to draw the cells' moves.
  const recipe = { ...given, disclosureKey: given.disclosureKey ?? randomDisclosureKey() };
  return new Promise((resolve, reject) => {
    const worker = startThread(import.meta.url, 'buildWorker', recipe);
    // A build in flight must not keep a stopping process alive.
    worker.unref();
    let settled = false;
    worker.on('message', (message: BuildMessage) => {
      if (message.kind === 'progress') onProgress(message.fraction, message.step);
      else if (message.kind === 'done') {
        settled = true;
        const release = freezeDeep(message.release);
        registerDisclosureKey(release, recipe.disclosureKey);
        resolve({ release, screening: message.screening, utility: message.utility });
      } else {
        settled = true;
        reject(new Error(message.message));
      }
    });
    worker.on('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.on('exit', (code) => {
      if (!settled) reject(new Error(`The release build thread stopped (exit code ${code})`));
    });
  });
}
