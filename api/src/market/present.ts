import type { components } from '../contract-types.js';
import {
  BELOW_THRESHOLD_BUCKET,
  CASH_COMPENSATION_TYPES,
  DEFAULT_EXECUTIVE_TITLE_ID,
  EXECUTIVE_TITLES,
  FOUNDER_TYPES,
  UNITED_STATES_ID,
  COMPANY_STAGES,
  COMPANY_STATUSES,
  CONSISTENCY_LABELS,
  EQUITY_COMPENSATION_TYPES,
  EQUITY_TIMEFRAME_OPTIONS,
  EQUITY_VIEW_OPTIONS,
  FAMILY_BLEND_GROUPS,
  INDUSTRY_GROUPS,
  INTENDED_VS_ACTUAL_OPTIONS,
  JOB_FAMILIES,
  LEVEL_BLENDS,
  LEVELS,
  OWNERSHIP_GROUPS,
  PERCENTILES,
  RELATIONSHIP_TYPES,
  GRANT_TIMING,
  TRACKS,
  UNVESTED_EQUITY_TIMEFRAME_OPTIONS,
  type CompanyStage,
  type ExecutiveTitle,
  type IndustryGroup,
  type Level,
  type LevelBlend,
  type NamedOption,
  type OwnershipGroup,
  type SubIndustry,
} from '../reference/catalog/index.js';
import { disclose, type CompositionEntry, type FamilyCoverage, type PrivacyScorecard } from './engine/index.js';
import type { ReleaseRow, SettingsRow } from './store.js';

type Schemas = components['schemas'];
export type BenchmarkingFilters = Schemas['BenchmarkingFilters'];
export type CompositionEntryBody = Schemas['CompositionEntry'];

const iso = (value: string | Date): string => new Date(value).toISOString();

/** What a release holds: generated records only, participants' only, or both. */
export function releaseKind(generatedRecords: number, contributedRecords: number): Schemas['MarketRelease']['source']['kind'] {
  if (generatedRecords === 0) return 'participants';
  return contributedRecords > 0 ? 'mixed' : 'demo';
}

export function presentRelease(row: ReleaseRow, servingId: string | null): Schemas['MarketRelease'] {
  return {
    id: row.id,
    version: row.version,
    status: row.status,
    pinned: Boolean(row.pinned),
    serving: row.id === servingId,
    source: {
      kind: releaseKind(Number(row.source_records), Number(row.contributed_records ?? 0)),
      seed: Number(row.source_seed),
      records: Number(row.source_records),
      contributedCompanies: Number(row.contributed_companies ?? 0),
      contributedRecords: Number(row.contributed_records ?? 0),
    },
    recordCount: Number(row.record_count),
    companyCount: Number(row.company_count),
    builtAt: iso(row.built_at),
    publishedAt: row.published_at ? iso(row.published_at) : null,
    privacyScorecard: parseScorecard(row.privacy_scorecard),
  };
}

/** A stored scorecard (JSON written by the release build), or null for a release built before scorecards. */
export function parseScorecard(stored: string | null | undefined): PrivacyScorecard | null {
  if (!stored) return null;
  return JSON.parse(stored) as PrivacyScorecard;
}

export type BenchmarkingLocation = 'Europe' | 'Canada' | 'United States' | null;

export function presentSettings(row: SettingsRow | undefined): Schemas['CompanyBenchmarkingSettings'] {
  return {
    overrideBaseCompensationRequirement: Boolean(row?.override_base_compensation_requirement),
    overrideEquityRequirement: Boolean(row?.override_equity_requirement),
    useSyntheticLocationInsightsData: Boolean(row?.use_synthetic_location_insights_data),
    location: (row?.location ?? null) as BenchmarkingLocation,
  };
}

function option(o: NamedOption | CompanyStage | OwnershipGroup): Schemas['BenchmarkingOption'] {
  return {
    id: o.id,
    displayString: o.displayString,
    description: o.description,
    ...('sortOrder' in o ? { sortOrder: o.sortOrder, companyStatusId: o.companyStatusId } : {}),
    ...('companyStageIds' in o ? { companyStageIds: [...o.companyStageIds] } : {}),
  };
}

function level(l: Level | LevelBlend): Schemas['BenchmarkingLevel'] {
  return {
    id: l.id,
    track: l.track,
    trackCode: l.trackCode,
    trackSortOrder: l.trackSortOrder,
    description: l.description,
    title: l.title,
    extendedTitle: l.extendedTitle,
    isSearchable: l.isSearchable,
    ...('sublevels' in l ? { sublevels: [...l.sublevels] } : {}),
  };
}

function levelWithIds(l: Level | LevelBlend, releaseVersion: string): Schemas['LevelWithIds'] {
  return {
    id: l.id,
    upstreamId: l.upstreamId,
    levelType: 'sublevels' in l ? 'levelBlend' : 'level',
    levelRank: l.levelRank,
    displayString: l.displayString,
    extendedDisplayString: l.extendedDisplayString,
    description: l.description,
    pinnedDataRelease: releaseVersion,
    isSearchable: l.isSearchable,
    groupedLevels: 'sublevels' in l ? [...l.sublevels] : [],
  };
}

/** What the served release holds of an industry, published as buckets (exact counts stay private). */
export type IndustryCoverage = ReadonlyMap<string, CompositionEntry>;

function industry(i: IndustryGroup | SubIndustry, coverage: IndustryCoverage): Schemas['IndustryWithIds'] {
  const isGroup = 'subIndustries' in i;
  const subIndustries = isGroup ? i.subIndustries.map((s) => industry(s, coverage)) : [];
  const own = coverage.get(i.upstreamId);
  const employees = own?.employees ?? 0;
  // An industry without records is as much below the threshold as one with a single company.
  const shown = own ? disclose(own) : { companyBucket: BELOW_THRESHOLD_BUCKET, employeeBucket: BELOW_THRESHOLD_BUCKET };
  return {
    displayString: i.displayString,
    industryName: i.industryName,
    industryGroupUpstreamId: isGroup ? null : i.industryGroupUpstreamId,
    isDefaultValue: isGroup ? i.isDefaultValue : false,
    isIndustryGroup: isGroup,
    isReleased: isGroup ? i.isReleased : employees > 0,
    isReleasedInEquityPractices: isGroup ? i.isReleasedInEquityPractices : employees > 0,
    upstreamId: i.upstreamId,
    description: i.description,
    coverageMetadata: {
      employeeCountBucket: shown.employeeBucket.label,
      companyCountBucket: shown.companyBucket.label,
      // Participant names are not shown outside the participants list.
      topCompanies: [],
    },
    subIndustries,
  };
}

/** The spec's benchmarking filters response, section by section. */
export function presentFilters(
  forex: Readonly<Record<string, number>>,
  releaseVersion: string,
  coverage: IndustryCoverage,
  variant: 'employee' | 'marketing',
): BenchmarkingFilters {
  const byBroad = (type: 'cash' | 'equity') => CONSISTENCY_LABELS.filter((l) => l.broadCompType === type).map((l) => ({ ...l }));
  const choice = (c: { value: string; label: string; description: string }) => ({ value: c.value, label: c.label, description: c.description });
  const views = EQUITY_VIEW_OPTIONS.filter((v) => variant === 'employee' || !v.isPremium);
  return {
    percentiles: [...PERCENTILES],
    compTypes: {
      cash: CASH_COMPENSATION_TYPES.map((t) => ({ ...t })),
      equity: EQUITY_COMPENSATION_TYPES.map((t) => ({ ...t })),
    },
    currencyForexMapping: { ...forex },
    consistencyLabels: CONSISTENCY_LABELS.map((l) => ({ ...l })),
    consistencyLabelsPerBroadCompType: { cash: byBroad('cash'), equity: byBroad('equity') },
    companyStatuses: COMPANY_STATUSES.map((s) => s.displayString),
    companyStages: COMPANY_STAGES.map((s) => s.displayString),
    levels: { levels: LEVELS.map(level), levelBlends: LEVEL_BLENDS.map(level) },
    levelsWithIds: {
      levelTracks: TRACKS.filter((t) => LEVELS.some((l) => l.track === t.id)).map((t) => ({
        id: t.id,
        trackCode: t.code,
        displayString: t.title,
        description: t.description,
        sortOrder: t.sortOrder,
        levels: LEVELS.filter((l) => l.track === t.id).map((l) => levelWithIds(l, releaseVersion)),
      })),
      levelBlends: LEVEL_BLENDS.map((b) => levelWithIds(b, releaseVersion)),
    },
    equityTimeframeOptions: EQUITY_TIMEFRAME_OPTIONS.map(choice),
    equityIntendedVsActualOptions: INTENDED_VS_ACTUAL_OPTIONS.map(choice),
    equityViewOptions: views.map((v) => ({ ...v, allowedCompanyOwnershipGroupIds: [...v.allowedCompanyOwnershipGroupIds], compensationTypes: [...v.compensationTypes] })),
    unvestedEquityTimeframeOptions: UNVESTED_EQUITY_TIMEFRAME_OPTIONS.map(choice),
    companyOwnershipGroupsWithIds: OWNERSHIP_GROUPS.map(option),
    relationshipTypesWithIds: RELATIONSHIP_TYPES.map(option),
    grantTimingWithIds: GRANT_TIMING.map(option),
    industriesAndSubIndustriesWithIds: INDUSTRY_GROUPS.map((g) => industry(g, coverage)),
    companyStagesWithIds: COMPANY_STAGES.map(option),
    founderTypesWithIds: FOUNDER_TYPES.map(option),
  };
}

const familyById = new Map(JOB_FAMILIES.map((f) => [f.id, f]));

/** Catalog names for the ids a composition lists. */
const NAMES = new Map<string, string>([
  ...JOB_FAMILIES.map((f) => [f.id, f.name] as const),
  ...LEVELS.map((l) => [l.id, l.displayString] as const),
  ...INDUSTRY_GROUPS.flatMap((g) => [[g.upstreamId, g.displayString] as const, ...g.subIndustries.map((s) => [s.upstreamId, s.displayString] as const)]),
  ...COMPANY_STAGES.map((s) => [s.id, s.displayString] as const),
  ...OWNERSHIP_GROUPS.map((o) => [o.id, o.displayString] as const),
]);

/** A composition group as it may be published: below the threshold without numbers, else rounded. */
export function presentEntry(entry: CompositionEntry, name = NAMES.get(entry.id) ?? entry.id): CompositionEntryBody {
  const shown = disclose(entry);
  return {
    id: entry.id,
    name,
    belowThreshold: shown.belowThreshold,
    companies: shown.companies,
    employees: shown.employees,
    companyBucket: { ...shown.companyBucket },
    employeeBucket: { ...shown.employeeBucket },
  };
}

/** A catalog entry for a family or a family blend group, with the served release's coverage. */
export function presentCatalogEntry(id: string, coverage: readonly FamilyCoverage[]): Schemas['JobCatalogEntry'] {
  const family = familyById.get(id);
  const group = FAMILY_BLEND_GROUPS.find((g) => g.id === id);
  const members = family ? [id] : (group?.associatedFamilies ?? []);
  const covered = coverage.filter((c) => members.includes(c.id));
  // Cash (base pay) covers every record. Families are disjoint, so employees add up; a company may
  // sit in several families, so the largest family's company count is what the group surely holds.
  const cash = covered.filter((c) => c.broadCompType === 'cash');
  const shown = disclose({ id, employees: cash.reduce((n, c) => n + c.employees, 0), companies: cash.reduce((n, c) => Math.max(n, c.companies), 0) });
  return {
    displayString: family?.name ?? group?.name ?? id,
    upstreamId: id,
    laddersUpToUpstreamId: family ? family.familyBlendGroupUpstreamId : null,
    trackSupport: family ? family.trackSupport.map((t) => ({ ...t })) : [],
    description: family?.description ?? group?.description ?? '',
    entityType: family ? 'family' : 'family_blend_group',
    coverage: {
      sampleSize: {
        companyBucket: { ...shown.companyBucket },
        employeeBucket: { ...shown.employeeBucket },
      },
      broadCompensationTypes: (['cash', 'equity'] as const).filter((type) => covered.some((c) => c.broadCompType === type)),
    },
    oldFamilyName: null,
    jobFamilyMatchingTip: family?.jobFamilyMatchingTip ?? '',
  };
}

function executiveTitle(t: ExecutiveTitle): Schemas['ExecutiveTitle'] {
  return { id: t.id, title: t.title, section: t.section, jobFamilyId: t.jobFamilyId, levelId: t.levelId };
}

const DEFAULT_INDUSTRY_ID = 'ind_technology';

/** The spec's executive-comp metadata: titles by section, their fuzzy matches, and the filters around them. */
export function presentExecutiveMetadata(coverage: IndustryCoverage, variant: 'employee' | 'marketing'): Schemas['ExecutiveCompMetadata'] {
  const defaultTitle = EXECUTIVE_TITLES.find((t) => t.id === DEFAULT_EXECUTIVE_TITLE_ID) ?? EXECUTIVE_TITLES[0];
  const defaultIndustry = INDUSTRY_GROUPS.find((g) => g.upstreamId === DEFAULT_INDUSTRY_ID) ?? INDUSTRY_GROUPS[0];
  if (!defaultTitle || !defaultIndustry) throw new Error('The executive catalog is empty');
  const sections = [...new Set(EXECUTIVE_TITLES.map((t) => t.section))];
  const views = EQUITY_VIEW_OPTIONS.filter((v) => variant === 'employee' || !v.isPremium);
  return {
    industries: INDUSTRY_GROUPS.map((g) => g.displayString),
    compTypes: {
      cash: CASH_COMPENSATION_TYPES.map((t) => ({ ...t })),
      equity: EQUITY_COMPENSATION_TYPES.map((t) => ({ ...t })),
    },
    companyStatuses: COMPANY_STATUSES.map((s) => s.displayString),
    companyStages: COMPANY_STAGES.map((s) => s.displayString),
    filterDefaults: {
      locationId: UNITED_STATES_ID,
      equityViewValue: 'value',
      jobTitleId: defaultTitle.id,
      founderType: 'non_founder',
      industryTitle: defaultIndustry.displayString,
      companyStage: { type: 'companyStage', value: 'series_b' },
    },
    founderStatuses: FOUNDER_TYPES.map((f) => f.displayString),
    percentiles: [...PERCENTILES],
    equityViewOptions: views.map((v) => ({ ...v, allowedCompanyOwnershipGroupIds: [...v.allowedCompanyOwnershipGroupIds], compensationTypes: [...v.compensationTypes] })),
    defaultTitle: executiveTitle(defaultTitle),
    defaultIndustry: { upstreamId: defaultIndustry.upstreamId, displayString: defaultIndustry.displayString },
    titles: sections.map((name) => ({ section: name, values: EXECUTIVE_TITLES.filter((t) => t.section === name).map(executiveTitle) })),
    titlesFuzzyMatches: EXECUTIVE_TITLES.flatMap((t) => t.aliases.map((alias) => ({ match: alias, titleId: t.id }))),
    industriesWithIds: INDUSTRY_GROUPS.map((g) => industry(g, coverage)),
    companyStatusesWithIds: COMPANY_STATUSES.map(option),
    companyStagesWithIds: COMPANY_STAGES.map(option),
    founderStatusesWithIds: FOUNDER_TYPES.map(option),
  };
}
