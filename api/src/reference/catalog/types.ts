/** Shapes of the benchmarking catalog: the reference vocabulary every release and request speaks. */

export type CompensationCategory = 'cash' | 'equity';

export interface CompensationType {
  id: string;
  title: string;
  description: string;
  category: CompensationCategory;
  isRecommended: boolean;
  isDisabled: boolean;
}

/** One choice among the equity options (intended vs actual, timeframes). */
export interface EquityChoice {
  value: string;
  label: string;
  description: string;
}

export interface EquityViewOption {
  label: string;
  value: string;
  type: 'cash' | 'percent';
  allowedCompanyOwnershipGroupIds: string[];
  compensationTypes: string[];
  description: string;
  isPremium: boolean;
}

export type TrackId = 'tr_s' | 'tr_p' | 'tr_m' | 'trbl_pm' | 'tr_vp' | 'tr_c';

export interface Track {
  id: TrackId;
  code: string;
  title: string;
  description: string;
  sortOrder: number;
}

export interface Level {
  id: string;
  upstreamId: string;
  track: TrackId;
  trackCode: string;
  trackSortOrder: number;
  title: string;
  extendedTitle: string;
  description: string;
  displayString: string;
  extendedDisplayString: string;
  /** Shared seniority grade across tracks: P4 and M4 sit on the same grade. */
  levelRank: number;
  isSearchable: boolean;
}

export interface LevelBlend extends Level {
  /** Level ids whose records the blend unites. */
  sublevels: string[];
}

export type TrackSupportStatus = 'in_catalog_searchable' | 'in_catalog_not_searchable' | 'not_in_catalog';

export interface TrackSupport {
  trackUpstreamId: TrackId;
  status: TrackSupportStatus;
  displayString: string;
}

/** A BLS Standard Occupational Classification code with its share of the family. */
export interface SocShare {
  code: string;
  share: number;
}

export interface JobFamily {
  id: string;
  upstreamId: string;
  name: string;
  description: string;
  isFamilySearchable: boolean;
  isSearchableOfferInsights: boolean;
  familyBlendGroupUpstreamId: string;
  socCodes: SocShare[];
  trackSupport: TrackSupport[];
  jobFamilyMatchingTip: string;
  exampleTitles: string[];
}

export interface FamilyBlendGroup {
  id: string;
  upstreamId: string;
  name: string;
  description: string;
  associatedFamilies: string[];
}

export type LocationKind = 'region' | 'country' | 'tier' | 'metro';

export interface Coordinates {
  latitude: number;
  longitude: number;
}

export interface Location {
  paybenchLocationId: string;
  paybenchLocationName: string;
  kind: LocationKind;
  description: string;
  /** The location this one rolls up into; null for a region. */
  parentId: string | null;
  /** For a metro, the tier (or country) whose market it is priced in. */
  marketTierLocationId: string | null;
  locationAliases: string[];
  globalRegion: string;
  /** ISO 3166-1 alpha-2; null for a region spanning several countries. */
  country: string | null;
  state: string | null;
  coordinates: Coordinates | null;
  currencyCode: string;
  isFree: boolean;
  isAvailable: boolean;
  isReleased: boolean;
  isReleasedExecComp: boolean;
  isSearchableOfferInsights: boolean;
}

export interface SubIndustry {
  upstreamId: string;
  industryName: string;
  displayString: string;
  description: string;
  industryGroupUpstreamId: string;
}

export interface IndustryGroup {
  upstreamId: string;
  industryName: string;
  displayString: string;
  description: string;
  isDefaultValue: boolean;
  isReleased: boolean;
  isReleasedInEquityPractices: boolean;
  subIndustries: SubIndustry[];
}

export interface CompanyStage {
  id: string;
  displayString: string;
  description: string;
  sortOrder: number;
  companyStatusId: string;
}

export interface OwnershipGroup {
  id: string;
  displayString: string;
  description: string;
  companyStageIds: string[];
}

/** A simple id + display pair (company statuses, founder types, relationship types, grant timing). */
export interface NamedOption {
  id: string;
  displayString: string;
  description: string;
}

export interface SampleBucket {
  id: string;
  label: string;
  min: number;
  /** Inclusive upper bound; null when open-ended. */
  max: number | null;
}

export interface ConsistencyLabel {
  upstreamId: string;
  consistencyLabel: string;
  version: number;
  /** 4 is the most consistent. */
  consistencyLevel: number;
  /** Typical relative error of the median at this sample size. */
  minError: number;
  maxError: number;
  sampleSizeBucketMin: number;
  sampleSizeBucketMax: number | null;
  broadCompType: CompensationCategory;
}
