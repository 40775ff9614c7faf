import type { components } from '../contract-types.js';

type Schemas = components['schemas'];
export type SectionName = Schemas['CommunicateSectionName'];
export type CommunicateSettingsBody = Omit<Schemas['CommunicateSettings'], 'version' | 'updatedAt'>;

/** The order sections are shown in, on the screen and in the PDF. */
export const SECTION_ORDER: readonly SectionName[] = [
  'overview',
  'timeline',
  'compensation',
  'salary',
  'bonus',
  'variablePay',
  'equity',
  'futureGrants',
  'futureModeling',
  'benefits',
  'aboutUs',
  'learningHub',
];

/** What a company's statements say until an admin changes it: every section on, in plain words. */
export const DEFAULT_SECTIONS: Schemas['CommunicateSections'] = {
  overview: {
    enabled: true,
    title: 'Your total rewards',
    text: 'Everything you receive for your work in a year: your pay, your share of the company and your benefits.',
  },
  timeline: { enabled: true, title: 'Your journey', text: 'Your pay changes and equity grants since you joined.' },
  compensation: { enabled: true, title: 'Your compensation', text: 'The cash you are paid a year, with your targets.' },
  salary: { enabled: true, title: 'Salary', text: 'Your base salary a year, before tax, and how it has changed.' },
  bonus: { enabled: true, title: 'Bonus', text: 'Your annual bonus target. What is paid depends on the bonus plan’s rules.' },
  variablePay: { enabled: true, title: 'Variable pay', text: 'Commission and other pay that varies with results, at target.' },
  equity: {
    enabled: true,
    title: 'Equity',
    text: 'Your share of the company. Shares vest over time; what they are worth depends on the share price.',
  },
  futureGrants: { enabled: true, title: 'Equity still to vest', text: 'The shares you have been granted that will vest in the coming years.' },
  futureModeling: {
    enabled: true,
    title: 'What your equity could be worth',
    text: 'Move the slider to see your equity at other company valuations. This is a model, not a promise: it models no tax, and share prices can fall as well as rise.',
  },
  benefits: { enabled: true, title: 'Benefits', text: 'What the company provides on top of your pay.' },
  aboutUs: { enabled: true, title: 'About us', text: 'We build this company together. Thank you for being part of it.' },
  learningHub: { enabled: true, title: 'Learning hub', text: 'Short explanations of how equity works.' },
};

export const DEFAULT_APPEARANCE: Schemas['CommunicateAppearance'] = {
  logo: null,
  brandColor: '#3b5bdb',
  bannerColor: '#1f2a44',
  bannerText: 'Thank you, {{firstName}}, for {{tenure}} with {{companyName}}.',
  bannerImage: null,
};

export const DEFAULT_EQUITY_DISPLAY: Schemas['EquityDisplay'] = { show: 'value', price: 'company_share_price', customPricePerShare: null };

export const DEFAULT_FUTURE_MODELING: Schemas['FutureModelingSettings'] = { multiples: [1, 2, 3, 5, 10], customPriceAllowed: true };

/** Equity basics every company starts with: options, RSUs, the cliff, vesting and liquidity. */
export const DEFAULT_ARTICLES: Schemas['LearningArticle'][] = [
  {
    id: 'stock-options',
    topic: 'options',
    title: 'What is a stock option?',
    summary: 'The right to buy company shares later at a price fixed today.',
    body: [
      'A stock option gives you the right, but not the obligation, to buy a number of company shares at a fixed price: the exercise price (or strike price), set when the option is granted.',
      'If the company’s share price rises above your exercise price, each option is worth the difference. With an exercise price of $1.00 and a share price of $5.00, one option is worth $4.00 before tax. If the share price is at or below the exercise price, the option is “underwater” and is worth nothing for now.',
      'Buying the shares is called exercising. Exercising costs money (the exercise price for each share) and can be taxed; the rules depend on the country you live in and the kind of option. Options usually expire, often ten years after the grant or a few months after you leave.',
    ].join('\n\n'),
  },
  {
    id: 'rsus',
    topic: 'rsus',
    title: 'What is an RSU?',
    summary: 'Shares the company promises you, delivered as they vest, with nothing to pay.',
    body: [
      'A restricted stock unit (RSU) is a promise to give you one company share for each unit once it vests. Unlike an option there is no exercise price: each vested RSU is worth the full share price.',
      'Because you pay nothing for them, RSUs keep some value as long as the shares do. In many countries vested RSUs are taxed as income when they are delivered.',
    ].join('\n\n'),
  },
  {
    id: 'cliff',
    topic: 'cliff',
    title: 'What is a cliff?',
    summary: 'The first waiting period, after which a block of your grant vests at once.',
    body: [
      'Most grants start with a cliff, commonly one year. Nothing vests before the cliff; on the cliff date everything that has accrued until then vests at once.',
      'With 4,800 options vesting over four years and a one-year cliff, nothing vests in the first year, 1,200 options (a quarter) vest on your first anniversary, and 100 vest each month after that.',
    ].join('\n\n'),
  },
  {
    id: 'vesting',
    topic: 'vesting',
    title: 'How vesting works',
    summary: 'Your grant becomes yours step by step while you work here.',
    body: [
      'Vesting is how a grant becomes yours over time. A typical schedule runs four years: after the cliff, a part vests every month (or quarter) until the whole grant has vested.',
      'Shares that have vested are yours to keep under the plan’s rules. Shares that have not vested yet are unvested: if you leave, vesting stops on your last day and unvested shares go back to the company.',
      'Your statement shows, for each grant, how many shares have vested, when the next ones vest and when the grant is fully vested.',
    ].join('\n\n'),
  },
  {
    id: 'liquidity',
    topic: 'liquidity',
    title: 'When can equity turn into money?',
    summary: 'A liquidity event is when shares can be sold: a sale of the company, a listing, or a tender offer.',
    body: [
      'Shares of a private company usually cannot be sold freely. They turn into money at a liquidity event: when the company is bought, when it lists its shares on a stock exchange, or when the company or investors offer to buy shares from employees (a tender offer).',
      'Until then, the value shown is an estimate at the company’s current share price. The real value when you can sell may be higher or lower, and may be nothing. The comp simulator lets you see your equity at other valuations; it does not model tax.',
    ].join('\n\n'),
  },
];

export const DEFAULT_SETTINGS: CommunicateSettingsBody = {
  appearance: DEFAULT_APPEARANCE,
  sections: DEFAULT_SECTIONS,
  equityDisplay: DEFAULT_EQUITY_DISPLAY,
  futureModeling: DEFAULT_FUTURE_MODELING,
  benefits: [],
  userGroups: [],
  learningHub: { articles: DEFAULT_ARTICLES },
};
