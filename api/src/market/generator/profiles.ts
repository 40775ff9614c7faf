/**
 * The pay model behind the demo market. Numbers are deliberate approximations of how tech-company
 * pay behaves (level progression, metro differentials, stage and industry effects); the family
 * medians themselves come from BLS at generation time.
 */

/** Base pay relative to a career-level (P3) professional of the same family. */
export const LEVEL_PAY: Readonly<Record<string, number>> = {
  s1: 0.62, s2: 0.72, s3: 0.84,
  p1: 0.7, p2: 0.84, p3: 1, p4: 1.2, p5: 1.45, p6: 1.75,
  m3: 1.12, m4: 1.36, m5: 1.65, m6: 1.98,
  e7: 2.4, e8: 2.9, e9: 3.3,
};

/** How levels spread within a track. */
export const LEVEL_MIX: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  tr_s: { s1: 0.35, s2: 0.4, s3: 0.25 },
  tr_p: { p1: 0.1, p2: 0.22, p3: 0.28, p4: 0.22, p5: 0.12, p6: 0.06 },
  tr_m: { m3: 0.45, m4: 0.3, m5: 0.18, m6: 0.07 },
  tr_vp: { e7: 0.75, e8: 0.25 },
  tr_c: { e9: 1 },
};

/** Share of a family's people on the support track, where the family has one. */
export const SUPPORT_SHARE: Readonly<Record<string, number>> = {
  customer_support: 0.7,
  administrative: 0.6,
  information_technology: 0.35,
  supply_chain: 0.25,
  accounting: 0.2,
  recruiting: 0.2,
  quality_engineering: 0.15,
  people: 0.15,
  business_operations: 0.1,
};
export const MANAGER_SHARE = 0.14;
export const VICE_PRESIDENT_SHARE = 0.012;
export const EXECUTIVE_SHARE = 0.004;

/** Headcount weight of each family in a typical technology company. */
export const FAMILY_WEIGHT: Readonly<Record<string, number>> = {
  software_engineering: 22, machine_learning_engineering: 2.5, infrastructure_engineering: 3.5, security_engineering: 1.2,
  quality_engineering: 1.5, hardware_engineering: 1, mechanical_engineering: 0.6, data_science: 2.2, data_analytics: 2.5,
  product_management: 4, program_management: 1.8, design: 2.5, technical_writing: 0.4, sales: 10, sales_engineering: 2,
  business_development: 1.2, customer_success: 4.5, customer_support: 6, marketing: 5, communications: 0.8, finance: 2.2,
  accounting: 1.8, people: 2, recruiting: 1.6, legal: 0.9, information_technology: 1.8, business_operations: 2.5,
  supply_chain: 1, administrative: 1.3,
};

/** Headcount multipliers by industry group (and the hardware sub-industry). */
export const FAMILY_WEIGHT_BY_INDUSTRY: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  ind_technology: { software_engineering: 1.2, machine_learning_engineering: 1.3, infrastructure_engineering: 1.2 },
  ind_tech_hardware: { hardware_engineering: 8, mechanical_engineering: 6, supply_chain: 3, software_engineering: 0.7 },
  ind_financial_services: { finance: 2, accounting: 1.6, legal: 1.6, security_engineering: 1.5, sales: 0.8 },
  ind_healthcare: { data_science: 1.4, legal: 1.4, mechanical_engineering: 2, software_engineering: 0.8 },
  ind_consumer: { marketing: 1.7, supply_chain: 2.5, customer_support: 1.5, design: 1.3, software_engineering: 0.7 },
  ind_industrials: { hardware_engineering: 4, mechanical_engineering: 8, supply_chain: 3, software_engineering: 0.6 },
  ind_services: { sales: 1.2, customer_success: 1.3, business_operations: 1.5, software_engineering: 0.6 },
};

export const INDUSTRY_WEIGHT: Readonly<Record<string, number>> = {
  ind_technology: 0.45,
  ind_financial_services: 0.14,
  ind_healthcare: 0.12,
  ind_consumer: 0.12,
  ind_industrials: 0.09,
  ind_services: 0.08,
};

/** Log base-pay premium by industry group, and a further one for AI companies. */
export const INDUSTRY_PAY: Readonly<Record<string, number>> = {
  ind_technology: 0.05,
  ind_financial_services: 0.06,
  ind_healthcare: 0,
  ind_consumer: -0.04,
  ind_industrials: -0.04,
  ind_services: -0.03,
  ind_tech_ai: 0.08,
};

export interface StageProfile {
  weight: number;
  /** Median participating headcount. */
  headcount: number;
  valuationUsd: number;
  /** Log base-pay effect. */
  pay: number;
  /** Extra log pay for E7–E9: executive pay scales with the company far more than other levels. */
  executivePay: number;
  bonusChance: number;
  equityValue: number;
  /** Chance the E9 is a founder. */
  founderChance: number;
  /** Median of current share price over the price at grant. */
  priceRatio: number;
}

export const STAGE_PROFILE: Readonly<Record<string, StageProfile>> = {
  seed: {
    weight: 0.16,
    headcount: 20,
    valuationUsd: 12e6,
    pay: -0.08,
    executivePay: -0.25,
    bonusChance: 0.08,
    equityValue: 0.55,
    founderChance: 0.75,
    priceRatio: 1.3,
  },
  series_a: {
    weight: 0.2,
    headcount: 55,
    valuationUsd: 55e6,
    pay: -0.05,
    executivePay: -0.15,
    bonusChance: 0.15,
    equityValue: 0.6,
    founderChance: 0.6,
    priceRatio: 1.3,
  },
  series_b: {
    weight: 0.17,
    headcount: 140,
    valuationUsd: 220e6,
    pay: -0.02,
    executivePay: -0.05,
    bonusChance: 0.25,
    equityValue: 0.75,
    founderChance: 0.45,
    priceRatio: 1.25,
  },
  series_c: {
    weight: 0.12,
    headcount: 320,
    valuationUsd: 700e6,
    pay: 0,
    executivePay: 0,
    bonusChance: 0.35,
    equityValue: 0.9,
    founderChance: 0.3,
    priceRatio: 1.2,
  },
  series_d_plus: {
    weight: 0.08,
    headcount: 700,
    valuationUsd: 2.2e9,
    pay: 0.02,
    executivePay: 0.05,
    bonusChance: 0.45,
    equityValue: 1.05,
    founderChance: 0.2,
    priceRatio: 1.1,
  },
  private_established: {
    weight: 0.12,
    headcount: 350,
    valuationUsd: 400e6,
    pay: -0.03,
    executivePay: 0,
    bonusChance: 0.7,
    equityValue: 0.5,
    founderChance: 0.35,
    priceRatio: 1.05,
  },
  public: {
    weight: 0.15,
    headcount: 2500,
    valuationUsd: 9e9,
    pay: 0.04,
    executivePay: 0.2,
    bonusChance: 0.75,
    equityValue: 1.15,
    founderChance: 0.1,
    priceRatio: 1.05,
  },
};

/** Share of established private companies owned by private equity (the rest are founder-owned). */
export const PRIVATE_EQUITY_SHARE = 0.45;

export const EQUITY_ELIGIBILITY: Readonly<Record<string, number>> = {
  venture_backed: 0.93,
  public: 0.85,
  private_equity_backed: 0.35,
  founder_owned: 0.12,
};

/** New-hire grant (four-year value at grant) as a multiple of base, by level. */
export const EQUITY_MULTIPLE: Readonly<Record<string, number>> = {
  s1: 0.05, s2: 0.07, s3: 0.09,
  p1: 0.25, p2: 0.35, p3: 0.55, p4: 0.85, p5: 1.3, p6: 1.9,
  m3: 0.7, m4: 1.05, m5: 1.6, m6: 2.3,
  e7: 3.2, e8: 4.5, e9: 7,
};

/** Equity generosity by family blend group. */
export const GROUP_EQUITY: Readonly<Record<string, number>> = {
  bg_engineering: 1.15,
  bg_data: 1.05,
  bg_product: 1.05,
  bg_go_to_market: 0.85,
  bg_marketing: 0.9,
  bg_general_administrative: 0.8,
};

/** Target annual bonus as a share of base, by level. */
export const BONUS_TARGET: Readonly<Record<string, number>> = {
  s1: 0.05, s2: 0.05, s3: 0.05,
  p1: 0.06, p2: 0.06, p3: 0.09, p4: 0.09, p5: 0.13, p6: 0.13,
  m3: 0.12, m4: 0.12, m5: 0.18, m6: 0.18,
  e7: 0.28, e8: 0.28, e9: 0.45,
};

/** Variable pay: the chance a family has it and its median as a share of base. */
export const VARIABLE_PAY: Readonly<Record<string, { chance: number; share: number }>> = {
  sales: { chance: 0.95, share: 0.75 },
  business_development: { chance: 0.8, share: 0.4 },
  sales_engineering: { chance: 0.9, share: 0.3 },
  customer_success: { chance: 0.6, share: 0.15 },
  marketing: { chance: 0.1, share: 0.1 },
};
export const DEFAULT_VARIABLE_PAY = { chance: 0.03, share: 0.08 };

export interface MetroProfile {
  /** Headcount weight within its country. */
  weight: number;
  /** Pay relative to the US national level, in USD terms. */
  pay: number;
}

export const METRO_PROFILE: Readonly<Record<string, MetroProfile>> = {
  us_sf_bay_area: {
    weight: 22,
    pay: 1.28,
  },
  us_new_york: {
    weight: 16,
    pay: 1.24,
  },
  us_seattle: {
    weight: 7,
    pay: 1.2,
  },
  us_boston: {
    weight: 6,
    pay: 1.14,
  },
  us_los_angeles: {
    weight: 6,
    pay: 1.12,
  },
  us_san_diego: {
    weight: 2,
    pay: 1.08,
  },
  us_washington_dc: {
    weight: 3,
    pay: 1.1,
  },
  us_austin: {
    weight: 4,
    pay: 1.05,
  },
  us_denver: {
    weight: 3,
    pay: 1.05,
  },
  us_chicago: {
    weight: 4,
    pay: 1.04,
  },
  us_portland: {
    weight: 1.5,
    pay: 1.04,
  },
  us_sacramento: {
    weight: 1,
    pay: 1.03,
  },
  us_atlanta: {
    weight: 2.5,
    pay: 0.97,
  },
  us_dallas: {
    weight: 2.5,
    pay: 0.98,
  },
  us_houston: {
    weight: 1.5,
    pay: 0.96,
  },
  us_miami: {
    weight: 1.5,
    pay: 0.96,
  },
  us_philadelphia: {
    weight: 1.5,
    pay: 0.98,
  },
  us_phoenix: {
    weight: 1.2,
    pay: 0.94,
  },
  us_minneapolis: {
    weight: 1.2,
    pay: 0.96,
  },
  us_raleigh: {
    weight: 1.5,
    pay: 0.95,
  },
  us_salt_lake_city: {
    weight: 1.5,
    pay: 0.94,
  },
  us_pittsburgh: {
    weight: 0.8,
    pay: 0.93,
  },
  us_nashville: {
    weight: 0.8,
    pay: 0.93,
  },
  us_detroit: {
    weight: 0.7,
    pay: 0.93,
  },
  us_columbus: {
    weight: 0.7,
    pay: 0.92,
  },
  us_kansas_city: {
    weight: 0.6,
    pay: 0.91,
  },
  ca_toronto: {
    weight: 50,
    pay: 0.72,
  },
  ca_vancouver: {
    weight: 25,
    pay: 0.72,
  },
  ca_montreal: {
    weight: 15,
    pay: 0.64,
  },
  ca_ottawa: {
    weight: 5,
    pay: 0.66,
  },
  ca_calgary: {
    weight: 5,
    pay: 0.68,
  },
  gb_london: {
    weight: 75,
    pay: 0.68,
  },
  gb_manchester: {
    weight: 10,
    pay: 0.55,
  },
  gb_edinburgh: {
    weight: 8,
    pay: 0.55,
  },
  gb_cambridge: {
    weight: 7,
    pay: 0.6,
  },
  de_berlin: {
    weight: 45,
    pay: 0.56,
  },
  de_munich: {
    weight: 30,
    pay: 0.62,
  },
  de_hamburg: {
    weight: 15,
    pay: 0.57,
  },
  de_frankfurt: {
    weight: 10,
    pay: 0.62,
  },
};

/** Where headquarters are, by ISO country code. */
export const COUNTRY_WEIGHT: Readonly<Record<string, number>> = { US: 0.8, CA: 0.07, GB: 0.08, DE: 0.05 };

/** Equity grants outside the US are smaller relative to base. */
export const COUNTRY_EQUITY: Readonly<Record<string, number>> = { US: 1, CA: 0.6, GB: 0.55, DE: 0.45 };

/** Units of each currency per USD used to express generated pay locally (2023 averages). */
export const GENERATION_FOREX: Readonly<Record<string, number>> = { USD: 1, CAD: 1.35, GBP: 0.8, EUR: 0.92 };

/** Where employees sit relative to their company's headquarters. */
export const AT_HEADQUARTERS = 0.7;
export const SAME_COUNTRY = 0.22;

/** Log-scale spread of a company's pay policy around the market. */
export const COMPANY_PAY_SIGMA = 0.07;
/** Bounds on within-cell noise: tight enough to look like pay, loose enough to be a market. */
export const NOISE_SIGMA_MIN = 0.06;
export const NOISE_SIGMA_MAX = 0.22;
/** Founders take less cash. */
export const FOUNDER_PAY = 0.8;
export const MEAN_TENURE_YEARS = 2.3;
