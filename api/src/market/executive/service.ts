import Fuse from 'fuse.js';
import type { components } from '../../contract-types.js';
import { badRequest } from '../../kernel/errors.js';
import { EXECUTIVE_TITLES, PERCENTILES } from '../../reference/catalog/index.js';
import { isValidBenchmarkRequest, queryRelease, type BenchmarkRequest } from '../engine/index.js';
import { currentRelease, type ServedRelease } from '../releases.js';
import { forexFor } from '../service.js';
import { findExecutiveTitle, titleRequest, validateExecutiveRequest, type ExecutiveRequestInput } from './request.js';
import { MINIMUM_FUZZY_SCORE, readTitle } from '../titles/index.js';
import type { ServiceContext } from '../../kernel/operations.js';

type Schemas = components['schemas'];

/** An executive request as it is stored and answered: every list present, every id known. */
export type ExecutiveRequest = Schemas['ExecutiveCompRequest'];

/** Checks an executive request; throws 400 with every problem, each field prefixed. */
export function checkedExecutiveRequest(input: ExecutiveRequestInput, prefix = 'body'): ExecutiveRequest {
  const issues = validateExecutiveRequest(input);
  if (issues.length) throw badRequest(issues[0]?.message ?? 'The request is not valid', issues.map((i) => ({ field: `${prefix}.${i.field}`, message: i.message })));
  return input as ExecutiveRequest;
}

/** Answers an executive request from a release: one row per title, its cells per market filter × comp type. */
export function answerExecutive(served: ServedRelease, forex: Readonly<Record<string, number>>, request: ExecutiveRequest): Schemas['ExecutiveCompResult'] {
  const percentiles = [...(request.percentiles ?? PERCENTILES)];
  const rows = (request.jobTitles ?? []).map((id) => {
    const title = findExecutiveTitle(id);
    if (!title) throw new Error(`Unknown executive title ${id}`);
    const explorer = titleRequest(request, title);
    if (!isValidBenchmarkRequest(explorer)) throw new Error('A checked executive request made an invalid explorer request');
    const result = queryRelease(served.release, explorer satisfies BenchmarkRequest, { forex });
    return { titleId: title.id, title: title.title, section: title.section, jobFamilyId: title.jobFamilyId, levelId: title.levelId, cells: result.cells };
  });
  return { releaseId: served.release.id, releaseVersion: served.row.version, currencyMode: request.currency ?? 'local', percentiles, rows };
}

export async function executiveMarketData(ctx: Pick<ServiceContext, 'deps'>, request: ExecutiveRequest): Promise<Schemas['ExecutiveCompResult']> {
  const { deps } = ctx;
  return answerExecutive(await currentRelease(deps), await forexFor({ db: deps.db }, request.currency), request);
}

interface TitleDocument {
  titleId: string;
  text: string;
}

/** A fuzzy score this high is the title as written ("Controller"), whichever family the index reads. */
const EXACT_SCORE = 0.95;

// Every title and each way people write it, searched with the spec's fuzzy constants.
const TITLE_DOCUMENTS: TitleDocument[] = EXECUTIVE_TITLES.flatMap((t) => [{ titleId: t.id, text: t.title }, ...t.aliases.map((alias) => ({ titleId: t.id, text: alias }))]);
const titleSearch = new Fuse(TITLE_DOCUMENTS, { threshold: 0.6, distance: 100, includeScore: true, keys: ['text'] });

/**
 * Catalog titles that match what someone typed, best first, each once, with the wording that
 * matched. The title index is read first: an occupation no family covers ("nurse") matches nothing,
 * and a title of a known family ("SRE", "backend developer") matches only that family's executives
 * (or a title spelt exactly). Fuzzy matches below MINIMUM_FUZZY_SCORE are no match.
 */
export function searchExecutiveTitles(search: string): Schemas['ExecutiveTitleMatch'][] {
  const reading = readTitle(search);
  if (reading.kind === 'no_family') return [];
  const seen = new Set<string>();
  const matches: Schemas['ExecutiveTitleMatch'][] = [];
  for (const hit of titleSearch.search(search.trim())) {
    const score = Math.round((1 - (hit.score ?? 1)) * 1000) / 1000;
    if (score < MINIMUM_FUZZY_SCORE) continue;
    if (seen.has(hit.item.titleId)) continue;
    const title = findExecutiveTitle(hit.item.titleId);
    if (!title) continue;
    if (reading.kind === 'family' && title.jobFamilyId !== reading.jobFamilyId && score < EXACT_SCORE) continue;
    seen.add(hit.item.titleId);
    matches.push({
      titleId: title.id,
      title: title.title,
      section: title.section,
      jobFamilyId: title.jobFamilyId,
      levelId: title.levelId,
      matchedText: hit.item.text,
      score,
    });
  }
  return matches;
}
