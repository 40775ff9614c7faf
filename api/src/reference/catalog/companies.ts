import type { CompanyStage, IndustryGroup, NamedOption, OwnershipGroup, SubIndustry } from './types.js';

/** Selecting it in a market filter means every industry. */
export const ALL_INDUSTRIES_ID = 'ind_all';

type SubRow = [id: string, name: string, description: string];

function industryGroup(id: string, name: string, description: string, subs: SubRow[]): IndustryGroup {
  return {
    upstreamId: id,
    industryName: name,
    displayString: name,
    description,
    isDefaultValue: false,
    isReleased: true,
    isReleasedInEquityPractices: true,
    subIndustries: subs.map(
      ([subId, subName, subDescription]): SubIndustry => ({
        upstreamId: subId,
        industryName: subName,
        displayString: subName,
        description: subDescription,
        industryGroupUpstreamId: id,
      }),
    ),
  };
}

export const INDUSTRY_GROUPS: readonly IndustryGroup[] = [
  industryGroup('ind_technology', 'Technology', 'Companies whose product is software, hardware or an internet service.', [
    ['ind_tech_saas', 'Enterprise software (SaaS)', 'Software sold to businesses by subscription.'],
    ['ind_tech_consumer_internet', 'Consumer internet', 'Consumer apps, social networks and marketplaces.'],
    ['ind_tech_developer_tools', 'Developer tools and infrastructure', 'Cloud, data and developer platforms.'],
    ['ind_tech_cybersecurity', 'Cybersecurity', 'Security products and services.'],
    ['ind_tech_ai', 'Artificial intelligence', 'Companies building AI models and AI-first products.'],
    ['ind_tech_hardware', 'Hardware and semiconductors', 'Devices, chips and electronics.'],
  ]),
  industryGroup('ind_financial_services', 'Financial services', 'Banks, insurers, asset managers and fintech.', [
    ['ind_fin_fintech', 'Fintech', 'Payments, lending and financial software.'],
    ['ind_fin_banking', 'Banking', 'Retail, commercial and investment banks.'],
    ['ind_fin_insurance', 'Insurance', 'Insurers and insurtech.'],
    ['ind_fin_asset_management', 'Asset management', 'Investment and wealth management.'],
  ]),
  industryGroup('ind_healthcare', 'Healthcare and life sciences', 'Care providers, health technology and life sciences.', [
    ['ind_health_tech', 'Health technology', 'Software and services for care providers and patients.'],
    ['ind_health_biotech', 'Biotechnology', 'Drug discovery and biological research.'],
    ['ind_health_medical_devices', 'Medical devices', 'Diagnostic and therapeutic devices.'],
  ]),
  industryGroup('ind_consumer', 'Consumer', 'Retail, consumer goods, media and entertainment.', [
    ['ind_consumer_ecommerce', 'E-commerce and retail', 'Online and physical retail.'],
    ['ind_consumer_goods', 'Consumer goods', 'Branded consumer products.'],
    ['ind_consumer_media', 'Media and entertainment', 'Publishing, streaming and gaming.'],
  ]),
  industryGroup('ind_industrials', 'Industrials and energy', 'Manufacturing, logistics, mobility and energy.', [
    ['ind_industrials_manufacturing', 'Manufacturing', 'Industrial and advanced manufacturing.'],
    ['ind_industrials_logistics', 'Logistics and mobility', 'Transportation, delivery and mobility.'],
    ['ind_industrials_climate', 'Climate and energy', 'Energy producers and climate technology.'],
  ]),
  industryGroup('ind_services', 'Business services', 'Professional services, real estate and education.', [
    ['ind_services_professional', 'Professional services', 'Consulting, agencies and outsourcing.'],
    ['ind_services_real_estate', 'Real estate and proptech', 'Property owners, brokers and property technology.'],
    ['ind_services_education', 'Education', 'Schools and education technology.'],
  ]),
];

export const SUB_INDUSTRIES: readonly SubIndustry[] = INDUSTRY_GROUPS.flatMap((group) => group.subIndustries);

export const COMPANY_STATUSES: readonly NamedOption[] = [
  { id: 'private', displayString: 'Private', description: 'Shares are not traded on a public exchange.' },
  { id: 'public', displayString: 'Public', description: 'Shares trade on a public exchange.' },
];

export const COMPANY_STAGES: readonly CompanyStage[] = [
  { id: 'seed', displayString: 'Seed', description: 'Pre-seed and seed funded.', sortOrder: 1, companyStatusId: 'private' },
  { id: 'series_a', displayString: 'Series A', description: 'Raised a Series A round.', sortOrder: 2, companyStatusId: 'private' },
  { id: 'series_b', displayString: 'Series B', description: 'Raised a Series B round.', sortOrder: 3, companyStatusId: 'private' },
  { id: 'series_c', displayString: 'Series C', description: 'Raised a Series C round.', sortOrder: 4, companyStatusId: 'private' },
  {
    id: 'series_d_plus',
    displayString: 'Series D+',
    description: 'Raised a Series D round or later, pre-IPO.',
    sortOrder: 5,
    companyStatusId: 'private',
  },
  {
    id: 'private_established',
    displayString: 'Established private',
    description: 'Mature private companies outside the venture funding ladder (bootstrapped or private-equity owned).',
    sortOrder: 6,
    companyStatusId: 'private',
  },
  { id: 'public', displayString: 'Public', description: 'Listed on a public exchange.', sortOrder: 7, companyStatusId: 'public' },
];

const VENTURE_STAGES = ['seed', 'series_a', 'series_b', 'series_c', 'series_d_plus'];

export const OWNERSHIP_GROUPS: readonly OwnershipGroup[] = [
  { id: 'venture_backed', displayString: 'Venture-backed', description: 'Funded by venture capital.', companyStageIds: VENTURE_STAGES },
  {
    id: 'private_equity_backed',
    displayString: 'Private equity-backed',
    description: 'Owned or controlled by a private equity firm.',
    companyStageIds: ['private_established'],
  },
  {
    id: 'founder_owned',
    displayString: 'Founder-owned',
    description: 'Bootstrapped or owned by founders and employees.',
    companyStageIds: ['private_established'],
  },
  { id: 'public', displayString: 'Public', description: 'Publicly traded.', companyStageIds: ['public'] },
];

export const FOUNDER_TYPES: readonly NamedOption[] = [
  { id: 'founder', displayString: 'Founder', description: 'The executive founded the company.' },
  { id: 'non_founder', displayString: 'Non-founder', description: 'The executive joined after the company was founded.' },
];

export const RELATIONSHIP_TYPES: readonly NamedOption[] = [
  { id: 'full_time', displayString: 'Full-time employee', description: 'Permanent employees working full time.' },
  { id: 'part_time', displayString: 'Part-time employee', description: 'Permanent employees working part time; pay is full-time equivalent.' },
];

export const GRANT_TIMING: readonly NamedOption[] = [
  { id: 'at_hire', displayString: 'At hire', description: 'Granted with the offer, vesting from the start date.' },
  { id: 'annual_cycle', displayString: 'Annual cycle', description: 'Granted once a year in the company-wide review.' },
  { id: 'on_promotion', displayString: 'On promotion', description: 'Granted when the employee moves up a level.' },
  { id: 'ad_hoc', displayString: 'Ad hoc', description: 'Granted outside any cycle, for retention or performance.' },
];
