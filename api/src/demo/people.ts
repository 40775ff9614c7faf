/**
 * The demo company's people: about 250 employees of Acme Robotics in an org tree (CEO → VPs →
 * directors → managers → individual contributors), placed in the market catalog's families, levels
 * and metros, with hire, merit and promotion history over the last three April cycles, equity
 * grants, demographics and performance ratings.
 *
 * Calibrated to the market a fresh install publishes (demo/market.ts), as a compensation team would
 * see it in the team view: everyone sits in a market cell that is published (a planned place the
 * market withholds moves to another of the department's sites or the country's metros, and then one
 * level down, titled for it), and today's base is that cell's median moved by performance and a
 * spread of about 7%, so compa-ratios centre on 1.0. Nobody is paid below the full-time legal
 * minimum of their country (demo/minimumWages.ts).
 *
 * Deterministic: the same `today` always gives the same people. The demo sign-ins are employees too:
 * manager@acme.test leads a team of eight, employee@acme.test is on it.
 */
import type { Knex } from 'knex';
import { newId } from '../db/ids.js';
import { JOB_FAMILIES, findJobFamily, findLevel, findLocation } from '../reference/catalog/index.js';
import { familyWageTargets } from '../market/generator/bls.js';
import { BONUS_TARGET, EQUITY_MULTIPLE, GENERATION_FOREX, GROUP_EQUITY, LEVEL_PAY, METRO_PROFILE, COUNTRY_EQUITY } from '../market/generator/profiles.js';
import { type DemoMarket, demoMarket } from './market.js';
import { annualMinimum } from './minimumWages.js';
import { type Random, createRandom, cumulative } from '../market/generator/random.js';
import {
  type CandidateRow,
  type CompensationRecordRow,
  type EmployeeRow,
  type EquityGrantRow,
  type PayComponentType,
  insertEmployees,
  insertGrants,
  insertRecords,
} from '../people/store.js';
import { addMonths } from '../people/vesting.js';

export const DEMO_PEOPLE_SEED = 20_240_401;

interface Department {
  name: string;
  vp: { family: string; level: string; title: string; email?: string; firstName?: string; lastName?: string };
  /** People below the VP. */
  size: number;
  directors: number;
  sites: [metro: string, weight: number][];
  families: [family: string, weight: number][];
}

const DEPARTMENTS: Department[] = [
  {
    name: 'Engineering',
    vp: { family: 'software_engineering', level: 'e8', title: 'SVP of Engineering' },
    size: 80,
    directors: 3,
    sites: [['us_sf_bay_area', 0.5], ['us_new_york', 0.2], ['ca_toronto', 0.15], ['gb_london', 0.15]],
    families: [['software_engineering', 0.62], ['infrastructure_engineering', 0.12], ['machine_learning_engineering', 0.1], ['security_engineering', 0.06], ['quality_engineering', 0.05], ['data_science', 0.05]],
  },
  {
    name: 'Hardware',
    vp: { family: 'hardware_engineering', level: 'e7', title: 'VP of Hardware' },
    size: 34,
    directors: 1,
    sites: [['us_sf_bay_area', 0.6], ['us_boston', 0.4]],
    families: [['hardware_engineering', 0.45], ['mechanical_engineering', 0.35], ['supply_chain', 0.2]],
  },
  {
    name: 'Product',
    vp: { family: 'product_management', level: 'e7', title: 'VP of Product' },
    size: 20,
    directors: 0,
    sites: [['us_sf_bay_area', 0.7], ['us_new_york', 0.3]],
    families: [['product_management', 0.45], ['design', 0.35], ['program_management', 0.15], ['technical_writing', 0.05]],
  },
  {
    name: 'Sales',
    vp: { family: 'sales', level: 'e8', title: 'SVP of Sales' },
    size: 36,
    directors: 1,
    sites: [['us_new_york', 0.4], ['us_chicago', 0.3], ['gb_london', 0.3]],
    families: [['sales', 0.65], ['sales_engineering', 0.25], ['business_development', 0.1]],
  },
  {
    name: 'Marketing',
    vp: { family: 'marketing', level: 'e7', title: 'VP of Marketing' },
    size: 14,
    directors: 0,
    sites: [['us_sf_bay_area', 0.6], ['us_new_york', 0.4]],
    families: [['marketing', 0.8], ['communications', 0.2]],
  },
  {
    name: 'Customer',
    vp: { family: 'customer_success', level: 'e7', title: 'VP of Customer Success' },
    size: 30,
    directors: 0,
    sites: [['us_denver', 0.5], ['us_new_york', 0.5]],
    families: [['customer_support', 0.55], ['customer_success', 0.45]],
  },
  {
    name: 'Finance & Operations',
    vp: { family: 'finance', level: 'e7', title: 'VP of Finance' },
    size: 14,
    directors: 0,
    sites: [['us_sf_bay_area', 0.8], ['us_new_york', 0.2]],
    families: [['finance', 0.3], ['accounting', 0.25], ['legal', 0.15], ['business_operations', 0.1], ['information_technology', 0.15], ['administrative', 0.05]],
  },
  {
    name: 'People',
    vp: { family: 'people', level: 'e7', title: 'VP of People', email: 'admin@acme.test', firstName: 'Ada', lastName: 'Admin' },
    size: 11,
    directors: 0,
    sites: [['us_sf_bay_area', 1]],
    families: [['people', 0.6], ['recruiting', 0.4]],
  },
];

const FIRST_NAMES = [
  'Aaliyah', 'Aarav', 'Abigail', 'Adebayo', 'Aiko', 'Alejandro', 'Amara', 'Amir', 'Ana', 'Andrei', 'Anika', 'Ben', 'Bianca', 'Carlos', 'Chen', 'Chloe',
  'Daniel', 'Dara', 'Deepa', 'Diego', 'Elena', 'Elif', 'Emeka', 'Emma', 'Ethan', 'Fatima', 'Felix', 'Gabriel', 'Grace', 'Hana', 'Hannah', 'Hiro',
  'Ibrahim', 'Ines', 'Isaac', 'Jamal', 'Jana', 'Javier', 'Jin', 'Jonas', 'Julia', 'Kai', 'Kavya', 'Keisha', 'Kenji', 'Lars', 'Leila', 'Liam',
  'Lucia', 'Luis', 'Maya', 'Mei', 'Mateo', 'Mohammed', 'Nadia', 'Naomi', 'Nikhil', 'Noah', 'Olga', 'Omar', 'Priyanka', 'Rafael', 'Rania', 'Ravi',
  'Rosa', 'Sam', 'Sana', 'Sebastian', 'Sofia', 'Tariq', 'Thanh', 'Tom', 'Uma', 'Valentina', 'Wei', 'Yara', 'Yusuf', 'Zara', 'Zoe', 'Malik',
];
const LAST_NAMES = [
  'Abara', 'Adeyemi', 'Alvarez', 'Andersen', 'Bauer', 'Becker', 'Brooks', 'Castillo', 'Chen', 'Cohen', 'Costa', 'Das', 'Dubois', 'Eriksen', 'Fischer', 'Flores',
  'Garcia', 'Gupta', 'Haddad', 'Hall', 'Hansen', 'Hernandez', 'Ito', 'Jensen', 'Johnson', 'Kapoor', 'Kim', 'Kowalski', 'Kumar', 'Larsen', 'Lee', 'Lopez',
  'Martin', 'Mendes', 'Meyer', 'Miller', 'Moreau', 'Murphy', 'Nakamura', 'Nguyen', 'Novak', 'Okafor', 'Oliveira', 'Park', 'Patel', 'Petrov', 'Quinn', 'Rahman',
  'Ramos', 'Reddy', 'Reyes', 'Rossi', 'Sato', 'Schmidt', 'Shah', 'Silva', 'Singh', 'Smith', 'Sorensen', 'Tanaka', 'Taylor', 'Torres', 'Tran', 'Turner',
  'Vargas', 'Wagner', 'Walker', 'Wang', 'Weber', 'Williams', 'Wong', 'Yamamoto', 'Yilmaz', 'Young', 'Zhang', 'Zimmermann', 'Mensah', 'Osei', 'Nowak', 'Horvat',
];

const RATINGS: [string, number][] = [['exceptional', 0.08], ['exceeds', 0.25], ['meets', 0.55], ['developing', 0.1], ['below', 0.02]];
const MERIT_RAISE: Record<string, number> = { exceptional: 0.06, exceeds: 0.045, meets: 0.03, developing: 0.015, below: 0 };
const GENDERS: [string | null, number][] = [['woman', 0.42], ['man', 0.54], ['non_binary', 0.02], [null, 0.02]];
const ETHNICITIES: [string | null, number][] = [
  ['Asian', 0.3], ['White', 0.38], ['Hispanic or Latino', 0.12], ['Black or African American', 0.1], ['Two or more races', 0.05],
  ['Native Hawaiian or Other Pacific Islander', 0.01], ['American Indian or Alaska Native', 0.01], [null, 0.03],
];
const IC_LEVELS: [string, number][] = [['p1', 0.08], ['p2', 0.22], ['p3', 0.3], ['p4', 0.22], ['p5', 0.12], ['p6', 0.06]];
const SUPPORT_LEVELS: [string, number][] = [['s1', 0.35], ['s2', 0.4], ['s3', 0.25]];
const SUPPORT_FAMILIES = new Set(['customer_support', 'administrative']);
/** Employer-paid benefits a year, by country, in local currency. */
const BENEFITS: Record<string, number> = { US: 18_000, CA: 9_000, GB: 6_000, DE: 8_000 };
/** Commission or variable pay as a share of base, for the families that have it. */
const INCENTIVE: Record<string, { type: PayComponentType; share: number }> = {
  sales: { type: 'commission', share: 0.8 },
  business_development: { type: 'commission', share: 0.4 },
  sales_engineering: { type: 'variable_pay', share: 0.3 },
  customer_success: { type: 'variable_pay', share: 0.15 },
};
/** Acme's 409A strike price by year (dollars), rising with each round; grants from 2024 on are RSUs. */
const STRIKE_BY_YEAR: Record<number, number> = { 2017: 0.55, 2018: 0.85, 2019: 1.4, 2020: 2.1, 2021: 3.4, 2022: 4.8, 2023: 5.5 };
const RSU_FROM = '2024-01-01';
const SHARE_PRICE = 18.4;
/** Where a rating sits today against the market median: strong performers above it, weak ones below. */
const RATING_POSITION: Record<string, number> = { exceptional: 1.06, exceeds: 1.03, meets: 1, developing: 0.95, below: 0.92 };
/** Interns are paid this share of the entry level's median. */
const INTERN_SHARE = 0.8;
/** Levels to try, in order, when the market withholds a person's planned level everywhere they could work. */
const LEVEL_BELOW: Record<string, string[]> = {
  e9: ['e8', 'e7'],
  e8: ['e7'],
  e7: ['m6', 'm5', 'm4'],
  m6: ['m5', 'm4'],
  m5: ['m4', 'm3'],
  m4: ['m3'],
  p6: ['p5'],
  p1: ['p2'],
  s3: ['s2'],
  s1: ['s2'],
};
/** Each country's metros the market covers best, tried after the department's own sites. */
const PRICED_METROS: Record<string, string[]> = {
  US: ['us_sf_bay_area', 'us_new_york', 'us_boston', 'us_los_angeles', 'us_chicago'],
  GB: ['gb_london'],
  CA: ['ca_toronto', 'ca_vancouver'],
};

let wageTargets: ReturnType<typeof familyWageTargets> | undefined;

const MANAGER_TITLE: Record<string, string> = { m3: 'Manager', m4: 'Senior Manager', m5: 'Director', m6: 'Senior Director' };
const LEVEL_PREFIX: Record<string, string> = { p1: 'Associate ', p2: '', p3: '', p4: 'Senior ', p5: 'Staff ', p6: 'Principal ', s1: '', s2: '', s3: 'Senior ' };

function pick<T>(random: Random, choices: [T, number][]): T {
  return (choices[random.pick(cumulative(choices.map(([, weight]) => weight)))] as [T, number])[0];
}

interface Person {
  row: EmployeeRow;
  /** Current annual base in minor units of the employee's currency. */
  base: number;
  rating: string;
  promotedIn: string | null;
}

interface Plan {
  family: string;
  level: string;
  /** The title, or the title for the level the person ends up at (see `place`). */
  title: string | ((level: string) => string);
  metro: string;
  /** Where else the person could work: the department's sites. */
  sites?: string[];
  managerId: string | null;
  department: string;
  tenureMonths: number;
  email?: string;
  firstName?: string;
  lastName?: string;
  employmentType?: string;
  terminated?: boolean;
}

/** The demo's two employers: the US company and its UK subsidiary (London). */
export const DEMO_LEGAL_ENTITIES = { US: 'Acme Robotics, Inc.', GB: 'Acme Robotics UK Ltd' } as const;

/**
 * The employing entity and contractual time of a demo person: London staff work for the UK
 * subsidiary on 37.5-hour weeks (hours recorded), everyone else for the US company on 40 (hours
 * left to FTE × 40). Part-timers alternate 0.6 and 0.8 FTE. No random draw, so the rest of the
 * company is the same as before these fields existed.
 */
function demoContract(country: string, employmentType: string | undefined, sequence: number): Pick<EmployeeRow, 'legal_entity' | 'fte' | 'weekly_hours'> {
  const fte = employmentType === 'part_time' ? (sequence % 2 === 0 ? 0.6 : 0.8) : 1;
  if (country === 'GB') return { legal_entity: DEMO_LEGAL_ENTITIES.GB, fte, weekly_hours: Math.round(37.5 * fte * 100) / 100 };
  return { legal_entity: DEMO_LEGAL_ENTITIES.US, fte, weekly_hours: null };
}

export interface DemoPeople {
  employees: EmployeeRow[];
  records: CompensationRecordRow[];
  grants: EquityGrantRow[];
  candidates: CandidateRow[];
}

/**
 * Builds the people of a company. `users` maps demo sign-in e-mails to user ids (the people with
 * those e-mails are linked to them); `today` anchors hire dates and pay cycles.
 */
export function generateDemoPeople(companyId: string, users: ReadonlyMap<string, string>, today: string, seed = DEMO_PEOPLE_SEED, market: DemoMarket = demoMarket()): DemoPeople {
  const random = createRandom(seed);
  // The BLS file is read once per process.
  wageTargets ??= familyWageTargets();
  const wages = wageTargets;
  const now = `${today}T00:00:00.000Z`;
  const people: Person[] = [];
  const records: CompensationRecordRow[] = [];
  const grants: EquityGrantRow[] = [];
  const emails = new Set<string>();
  let numberSeq = 0;
  let grantSeq = 0;

  const uniqueEmail = (first: string, last: string): string => {
    const base = `${first}.${last}`.toLowerCase().normalize('NFKD').replace(/[^a-z.]/g, '');
    let email = `${base}@acme.test`;
    for (let n = 2; emails.has(email); n += 1) email = `${base}${n}@acme.test`;
    return email;
  };

  const tenure = (min: number, max: number): number => Math.round(Math.min(max, Math.max(min, min + -Math.log(1 - random.next()) * 26)));

  /** The first place the market prices: the planned level at each site in turn, then a level down. */
  function place(plan: Plan): { level: string; metro: string; median: number | null } {
    const country = findLocation(plan.metro)?.country;
    const metros = [...new Set([plan.metro, ...(plan.sites ?? []), ...(PRICED_METROS[country ?? ''] ?? [])])];
    for (const level of [plan.level, ...(LEVEL_BELOW[plan.level] ?? [])]) {
      for (const metro of metros) {
        const median = market.medianOf(plan.family, level, metro);
        if (median !== null) return { level, metro, median };
      }
    }
    // A market too small to price the cell anywhere (a tiny configured release): as planned, on the model's pay.
    return { level: plan.level, metro: plan.metro, median: null };
  }

  function hire(plan: Plan): Person {
    const placed = place(plan);
    const level = findLevel(placed.level);
    const location = findLocation(placed.metro);
    if (!level || !location || !findJobFamily(plan.family)) throw new Error(`Demo plan refers to unknown catalog ids: ${plan.family} ${plan.level} ${plan.metro}`);
    const firstName = plan.firstName ?? FIRST_NAMES[Math.floor(random.next() * FIRST_NAMES.length)]!;
    const lastName = plan.lastName ?? LAST_NAMES[Math.floor(random.next() * LAST_NAMES.length)]!;
    const email = plan.email ?? uniqueEmail(firstName, lastName);
    emails.add(email);
    const country = location.country ?? 'US';
    const currency = location.currencyCode;
    const startDate = addMonths(today, -plan.tenureMonths);
    const rating = plan.tenureMonths < 4 ? 'meets' : pick(random, RATINGS);
    const birthYear = Number(today.slice(0, 4)) - Math.round(23 + level.levelRank * 3.2 + random.normal() * 3);
    numberSeq += 1;
    const row: EmployeeRow = {
      id: newId(),
      company_id: companyId,
      employee_number: `AR-${String(numberSeq).padStart(4, '0')}`,
      user_id: users.get(email) ?? null,
      email,
      first_name: firstName,
      last_name: lastName,
      title: typeof plan.title === 'string' ? plan.title : plan.title(placed.level),
      company_job_id: null,
      job_code: null,
      job_family_id: plan.family,
      level_id: placed.level,
      track: level.track,
      manager_id: plan.managerId,
      department: plan.department,
      country_code: country,
      location_id: placed.metro,
      currency,
      start_date: startDate,
      employment_type: plan.employmentType ?? 'full_time',
      status: plan.terminated ? 'terminated' : 'active',
      termination_date: plan.terminated ? addMonths(today, -Math.max(1, Math.floor(random.next() * Math.min(10, plan.tenureMonths - 1)))) : null,
      performance_rating: rating,
      ...demoContract(country, plan.employmentType, numberSeq),
      demographics: JSON.stringify({
        gender: pick(random, GENDERS),
        ethnicity: country === 'US' ? pick(random, ETHNICITIES) : null,
        birthYear,
      }),
      version: 1,
      created_at: now,
      updated_at: now,
    };
    // Today's base: the market median of the person's cell, moved by performance and a spread of about
    // 7%, in local currency; part-time pay is recorded full-time equivalent, as the market reports it.
    const spread = Math.exp(random.normal() * 0.07);
    const median = placed.median ?? (wages.get(plan.family)?.median ?? 90_000) * (LEVEL_PAY[placed.level] ?? 1) * (METRO_PROFILE[placed.metro]?.pay ?? 1) * (GENERATION_FOREX[currency] ?? 1);
    const local = median * (RATING_POSITION[rating] ?? 1) * spread * (plan.employmentType === 'intern' ? INTERN_SHARE : 1);
    const minimum = annualMinimum(country, today);
    const floor = minimum && minimum.currency === currency ? minimum.amount : 0;
    const base = Math.max(Math.round(local / 500) * 500 * 100, Math.ceil(floor / 50_000) * 50_000);
    const person: Person = { row, base, rating, promotedIn: null };
    people.push(person);
    return person;
  }

  // ── the org tree ──
  // The founder-CEO came from engineering; the market prices chief executives only there.
  const ceo = hire({ family: 'software_engineering', level: 'e9', title: 'Chief Executive Officer', metro: 'us_sf_bay_area', managerId: null, department: 'Executive', tenureMonths: 96, firstName: 'Rosa', lastName: 'Delgado' });
  let marcoPlaced = false;
  for (const department of DEPARTMENTS) {
    const sites = department.sites.map(([metro]) => metro);
    const vpTitle = department.vp.title;
    const vp = hire({
      family: department.vp.family,
      level: department.vp.level,
      // A department head the market prices only below the VP levels is its head, not a VP.
      title: (level) => (level.startsWith('e') ? vpTitle : vpTitle.replace(/^S?VP of /, 'Head of ')),
      metro: sites[0]!,
      sites,
      managerId: ceo.row.id,
      department: department.name,
      tenureMonths: tenure(18, 84),
      ...(department.vp.email ? { email: department.vp.email, firstName: department.vp.firstName, lastName: department.vp.lastName } : {}),
    });
    if (department.name === 'People') {
      // The demo planner and analyst work for the VP of People (the demo admin).
      hire({ family: 'people', level: 'p4', title: 'Senior Compensation Partner', metro: 'us_sf_bay_area', managerId: vp.row.id, department: 'People', tenureMonths: 30, email: 'planner@acme.test', firstName: 'Priya', lastName: 'Planner' });
      hire({ family: 'data_analytics', level: 'p3', title: 'People Analytics Analyst', metro: 'us_sf_bay_area', managerId: vp.row.id, department: 'People', tenureMonths: 20, email: 'analyst@acme.test', firstName: 'Ana', lastName: 'Analyst' });
    }
    const directors: Person[] = [];
    for (let d = 0; d < department.directors; d += 1) {
      const family = pick(random, department.families);
      directors.push(
        hire({ family, level: random.chance(0.3) ? 'm6' : 'm5', title: (level) => `${MANAGER_TITLE[level] ?? 'Director'}, ${findJobFamily(family)?.name ?? family}`, metro: pick(random, department.sites), sites, managerId: vp.row.id, department: department.name, tenureMonths: tenure(12, 72) }),
      );
    }
    let remaining = department.size - department.directors - (department.name === 'People' ? 2 : 0);
    let team = 0;
    while (remaining > 0) {
      const leads = directors.length ? directors[team % directors.length]! : vp;
      const isMarcos = department.name === 'Engineering' && !marcoPlaced;
      const family = isMarcos ? 'software_engineering' : pick(random, department.families);
      const metro = isMarcos ? 'us_sf_bay_area' : pick(random, department.sites);
      const size = isMarcos ? 8 : Math.min(remaining - 1, 4 + Math.floor(random.next() * 5));
      const familyName = findJobFamily(family)?.name ?? family;
      const managerLevel = isMarcos ? 'm3' : random.chance(0.3) ? 'm4' : 'm3';
      const manager =
        remaining <= 2
          ? leads
          : hire({
              family,
              level: managerLevel,
              title: (level) => `${MANAGER_TITLE[level] ?? 'Manager'}, ${familyName}`,
              metro,
              sites,
              managerId: leads.row.id,
              department: department.name,
              tenureMonths: isMarcos ? 40 : tenure(8, 72),
              ...(isMarcos ? { email: 'manager@acme.test', firstName: 'Marco', lastName: 'Manager' } : {}),
            });
      if (manager !== leads) remaining -= 1;
      const members = Math.max(1, Math.min(size, remaining));
      for (let i = 0; i < members; i += 1) {
        const memberFamily = isMarcos || random.chance(0.75) ? family : pick(random, department.families);
        const support = SUPPORT_FAMILIES.has(memberFamily);
        const emil = isMarcos && i === 2;
        const level = emil ? 'p3' : pick(random, support ? SUPPORT_LEVELS : IC_LEVELS);
        const intern = !isMarcos && department.name === 'Engineering' && level === 'p1' && random.chance(0.25);
        const baseTitle = findJobFamily(memberFamily)?.exampleTitles[0] ?? 'Specialist';
        hire({
          family: memberFamily,
          level,
          title: (placed) => (intern ? `${baseTitle} Intern` : `${LEVEL_PREFIX[placed] ?? ''}${baseTitle}`),
          metro: random.chance(0.8) ? metro : pick(random, department.sites),
          sites,
          managerId: manager.row.id,
          department: department.name,
          tenureMonths: emil ? 22 : intern ? 3 : tenure(1, 84),
          ...(emil ? { email: 'employee@acme.test', firstName: 'Emil', lastName: 'Employee' } : {}),
          ...(intern ? { employmentType: 'intern' } : support && random.chance(0.08) ? { employmentType: 'part_time' } : department.name === 'Marketing' && random.chance(0.15) ? { employmentType: 'contractor' } : {}),
          terminated: !isMarcos && !emil && random.chance(0.025),
        });
      }
      remaining -= members;
      if (isMarcos) marcoPlaced = true;
      team += 1;
    }
  }

  // ── pay history: hire, then merit (or promotion) each April 1 of the last three cycles ──
  const year = Number(today.slice(0, 4));
  const cycles = [year - 2, year - 1, year].map((y) => `${y}-04-01`).filter((date) => date <= today);
  const record = (person: Person, type: PayComponentType, amount: number, date: string, reason: string, percentBp: number | null = null) =>
    records.push({
      id: newId(),
      company_id: companyId,
      employee_id: person.row.id,
      type,
      amount,
      currency: person.row.currency,
      percent_of_base_bp: percentBp,
      effective_date: date,
      reason,
      source: 'manual',
      version: 1,
      created_at: now,
      updated_at: now,
    });
  const roundPay = (minor: number): number => Math.round(minor / 10_000) * 10_000;

  for (const person of people) {
    const start = person.row.start_date as string;
    const end = person.row.termination_date ?? today;
    const eligible = cycles.filter((date) => date > addMonths(start, 3) && date <= end);
    const promotionCycle = eligible.length && (person.rating === 'exceptional' || person.rating === 'exceeds') && random.chance(0.35) ? eligible[eligible.length - 1 - Math.floor(random.next() * eligible.length)]! : null;
    person.promotedIn = promotionCycle;
    const raises = eligible.map((date) => ({ date, factor: 1 + (date === promotionCycle ? 0.1 + MERIT_RAISE[person.rating]! / 2 : MERIT_RAISE[person.rating]!) }));
    // Work back from today's pay to the starting salary.
    let base = person.base / raises.reduce((product, raise) => product * raise.factor, 1);
    const bonusBp = Math.round((BONUS_TARGET[person.row.level_id ?? ''] ?? 0.05) * 10_000);
    const incentive = INCENTIVE[person.row.job_family_id ?? ''];
    const intern = person.row.employment_type === 'intern';
    const setPay = (date: string, reason: string) => {
      const amount = roundPay(base);
      record(person, 'base_salary', amount, date, reason);
      if (!intern) record(person, 'bonus_target', Math.round((amount * bonusBp) / 10_000), date, reason, bonusBp);
      if (incentive) {
        const bp = Math.round(incentive.share * 10_000);
        record(person, incentive.type, Math.round((amount * bp) / 10_000), date, reason, bp);
      }
      return amount;
    };
    let current = setPay(start, 'hire');
    for (const raise of raises) {
      if (raise.factor === 1) continue;
      base *= raise.factor;
      current = setPay(raise.date, raise.date === promotionCycle ? 'promotion' : 'merit');
    }
    person.base = current;
    if (!intern) {
      const benefits = (BENEFITS[person.row.country_code ?? 'US'] ?? 10_000) * 100;
      record(person, 'benefits', benefits, start, 'hire');
      const renewal = `${year}-01-01`;
      if (renewal > start && renewal <= end && person.row.country_code === 'US') record(person, 'benefits', Math.round(benefits * 1.05), renewal, 'adjustment');
    }
  }

  // ── equity: a new-hire grant, a promotion grant, yearly refreshers after two years ──
  const grant = (person: Person, reason: string, date: string, valueUsd: number, type?: EquityGrantRow['grant_type']) => {
    const kind = type ?? (date >= RSU_FROM ? 'rsu' : 'option');
    const strike = STRIKE_BY_YEAR[Math.min(2023, Math.max(2017, Number(date.slice(0, 4))))] ?? 5.5;
    const perShare = kind === 'option' ? SHARE_PRICE - strike : SHARE_PRICE;
    const shares = Math.max(100, Math.round(valueUsd / perShare / 100) * 100);
    grantSeq += 1;
    grants.push({
      id: newId(),
      company_id: companyId,
      employee_id: person.row.id,
      grant_number: `ES-${String(grantSeq).padStart(4, '0')}`,
      grant_type: kind,
      reason,
      shares,
      exercise_price: kind === 'option' ? Math.round(strike * 100) : null,
      currency: 'USD',
      grant_date: date,
      vesting_start_date: date,
      vesting_months: kind === 'common_stock' ? 0 : 48,
      cliff_months: kind === 'common_stock' || reason !== 'new_hire' ? 0 : 12,
      vesting_frequency: kind === 'rsu' ? 'quarterly' : 'monthly',
      source: 'manual',
      version: 1,
      created_at: now,
      updated_at: now,
    });
  };
  for (const person of people) {
    if (person.row.employment_type === 'intern' || person.row.employment_type === 'contractor') continue;
    const start = person.row.start_date as string;
    const level = person.row.level_id ?? 'p3';
    if (level === 'e9') {
      grant(person, 'new_hire', start, 0, 'common_stock');
      (grants.at(-1) as EquityGrantRow).shares = 6_000_000;
      continue;
    }
    const family = JOB_FAMILIES.find((f) => f.id === person.row.job_family_id);
    const baseUsd = person.base / 100 / (GENERATION_FOREX[person.row.currency] ?? 1);
    const value = baseUsd * (EQUITY_MULTIPLE[level] ?? 0.3) * (GROUP_EQUITY[family?.familyBlendGroupUpstreamId ?? ''] ?? 1) * (COUNTRY_EQUITY[person.row.country_code ?? 'US'] ?? 1);
    const earlyExecutive = level.startsWith('e') && start < addMonths(today, -60);
    grant(person, 'new_hire', start, value, earlyExecutive ? 'rsa' : undefined);
    if (person.promotedIn) grant(person, 'promotion', person.promotedIn, value * 0.3);
    for (const date of cycles) {
      if (date >= addMonths(start, 24) && date <= (person.row.termination_date ?? today) && person.rating !== 'below' && person.rating !== 'developing') grant(person, 'refresher', date, value * 0.25);
    }
  }

  const cleo: CandidateRow = {
    id: newId(),
    company_id: companyId,
    email: 'candidate@example.test',
    first_name: 'Cleo',
    last_name: 'Candidate',
    title: 'Senior Software Engineer',
    job_family_id: 'software_engineering',
    level_id: 'p4',
    location_id: 'us_sf_bay_area',
    country_code: 'US',
    currency: 'USD',
    status: 'active',
    source: 'referral',
    hired_employee_id: null,
    version: 1,
    created_at: now,
    updated_at: now,
  };
  return { employees: people.map((person) => person.row), records, grants, candidates: [cleo] };
}

/** Seeds the demo company's people in a few bulk inserts; the demo sign-ins are linked by e-mail. */
export async function seedDemoPeople(db: Knex, companyId: string, today = new Date().toISOString().slice(0, 10)): Promise<{ employees: number; records: number; grants: number }> {
  const users = await db('users').where({ company_id: companyId }).select<{ id: string; email: string }[]>('id', 'email');
  const people = generateDemoPeople(companyId, new Map(users.map((user) => [user.email, user.id])), today);
  await insertEmployees(db, people.employees);
  await insertRecords(db, people.records);
  await insertGrants(db, people.grants);
  if (people.candidates.length) await db('candidates').insert(people.candidates);
  return { employees: people.employees.length, records: people.records.length, grants: people.grants.length };
}
