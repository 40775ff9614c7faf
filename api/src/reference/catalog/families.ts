import type { FamilyBlendGroup, JobFamily, SocShare, TrackId, TrackSupport } from './types.js';

const TRACK_NAMES: Record<TrackId, string> = {
  tr_s: 'Support',
  tr_p: 'Professional',
  tr_m: 'Management',
  trbl_pm: 'Professional and management blend',
  tr_vp: 'Vice president',
  tr_c: 'Executive',
};
const ALL_TRACKS: TrackId[] = ['tr_s', 'tr_p', 'tr_m', 'trbl_pm', 'tr_vp', 'tr_c'];

/** Tracks most families cover; support and executive levels are added per family. */
const CORE_TRACKS: TrackId[] = ['tr_p', 'tr_m', 'trbl_pm', 'tr_vp'];

function trackSupport(supported: TrackId[]): TrackSupport[] {
  return ALL_TRACKS.map((id) => ({
    trackUpstreamId: id,
    status: supported.includes(id) ? 'in_catalog_searchable' : 'not_in_catalog',
    displayString: TRACK_NAMES[id],
  }));
}

interface FamilyDraft {
  id: string;
  name: string;
  group: string;
  description: string;
  soc: SocShare[];
  tracks: TrackId[];
  tip: string;
  titles: string[];
}

function family(draft: FamilyDraft): JobFamily {
  return {
    id: draft.id,
    upstreamId: draft.id,
    name: draft.name,
    description: draft.description,
    isFamilySearchable: true,
    isSearchableOfferInsights: true,
    familyBlendGroupUpstreamId: draft.group,
    socCodes: draft.soc,
    trackSupport: trackSupport(draft.tracks),
    jobFamilyMatchingTip: draft.tip,
    exampleTitles: draft.titles,
  };
}

const withExec: TrackId[] = [...CORE_TRACKS, 'tr_c'];
const withSupport: TrackId[] = ['tr_s', ...CORE_TRACKS];

/**
 * Job families with the BLS SOC occupations they are calibrated against.
 * Shares weight each occupation in the family's wage anchor.
 */
export const JOB_FAMILIES: readonly JobFamily[] = [
  family({
    id: 'software_engineering',
    name: 'Software Engineering',
    group: 'bg_engineering',
    description: 'Designs, builds and maintains software products and platforms.',
    soc: [
      { code: '15-1252', share: 0.85 },
      { code: '11-3021', share: 0.15 },
    ],
    tracks: withExec,
    tip: 'Includes frontend, backend, full-stack and mobile engineers; use Infrastructure Engineering for SRE and DevOps.',
    titles: ['Software Engineer', 'Backend Engineer', 'Frontend Engineer', 'Mobile Engineer', 'Engineering Manager', 'CTO'],
  }),
  family({
    id: 'machine_learning_engineering',
    name: 'Machine Learning Engineering',
    group: 'bg_engineering',
    description: 'Builds, trains and deploys machine learning models and ML infrastructure.',
    soc: [
      { code: '15-1221', share: 0.6 },
      { code: '15-1252', share: 0.4 },
    ],
    tracks: CORE_TRACKS,
    tip: 'Use for engineers who ship models to production; analysts who build models belong in Data Science.',
    titles: ['Machine Learning Engineer', 'ML Platform Engineer', 'Applied Scientist'],
  }),
  family({
    id: 'infrastructure_engineering',
    name: 'Infrastructure Engineering',
    group: 'bg_engineering',
    description: 'Runs cloud infrastructure, reliability, deployment and developer platforms.',
    soc: [
      { code: '15-1244', share: 0.5 },
      { code: '15-1241', share: 0.5 },
    ],
    tracks: CORE_TRACKS,
    tip: 'Site reliability, DevOps, platform and cloud engineers.',
    titles: ['Site Reliability Engineer', 'DevOps Engineer', 'Platform Engineer', 'Cloud Engineer'],
  }),
  family({
    id: 'security_engineering',
    name: 'Security Engineering',
    group: 'bg_engineering',
    description: 'Protects systems and data: application, cloud and infrastructure security.',
    soc: [{ code: '15-1212', share: 1 }],
    tracks: withExec,
    tip: 'Security engineers and analysts; the CISO sits at E9 in this family.',
    titles: ['Security Engineer', 'Security Analyst', 'Application Security Engineer', 'CISO'],
  }),
  family({
    id: 'quality_engineering',
    name: 'Quality Engineering',
    group: 'bg_engineering',
    description: 'Tests software and builds test automation.',
    soc: [{ code: '15-1253', share: 1 }],
    tracks: withSupport,
    tip: 'QA analysts and test automation engineers.',
    titles: ['QA Engineer', 'Test Automation Engineer', 'QA Analyst'],
  }),
  family({
    id: 'hardware_engineering',
    name: 'Hardware Engineering',
    group: 'bg_engineering',
    description: 'Designs electronic hardware, chips and embedded systems.',
    soc: [
      { code: '17-2061', share: 0.5 },
      { code: '17-2072', share: 0.5 },
    ],
    tracks: CORE_TRACKS,
    tip: 'Electrical, electronics and silicon engineers; firmware engineers belong in Software Engineering.',
    titles: ['Hardware Engineer', 'Electrical Engineer', 'ASIC Design Engineer'],
  }),
  family({
    id: 'mechanical_engineering',
    name: 'Mechanical Engineering',
    group: 'bg_engineering',
    description: 'Designs mechanical systems, enclosures and manufacturing processes.',
    soc: [{ code: '17-2141', share: 1 }],
    tracks: CORE_TRACKS,
    tip: 'Mechanical and manufacturing engineers.',
    titles: ['Mechanical Engineer', 'Manufacturing Engineer'],
  }),
  family({
    id: 'data_science',
    name: 'Data Science',
    group: 'bg_data',
    description: 'Uses statistics and modelling to answer product and business questions.',
    soc: [
      { code: '15-2051', share: 0.85 },
      { code: '15-2041', share: 0.15 },
    ],
    tracks: CORE_TRACKS,
    tip: 'Data scientists and statisticians; reporting-focused analysts belong in Data Analytics.',
    titles: ['Data Scientist', 'Product Data Scientist', 'Statistician'],
  }),
  family({
    id: 'data_analytics',
    name: 'Data Analytics',
    group: 'bg_data',
    description: 'Builds reporting, dashboards and analyses for business teams.',
    soc: [
      { code: '15-2051', share: 0.4 },
      { code: '13-1111', share: 0.3 },
      { code: '13-1161', share: 0.3 },
    ],
    tracks: CORE_TRACKS,
    tip: 'Data, business intelligence and analytics engineers focused on reporting.',
    titles: ['Data Analyst', 'Business Intelligence Analyst', 'Analytics Engineer'],
  }),
  family({
    id: 'product_management',
    name: 'Product Management',
    group: 'bg_product',
    description: 'Decides what to build and why; owns product outcomes.',
    soc: [
      { code: '11-2021', share: 0.4 },
      { code: '15-1299', share: 0.3 },
      { code: '13-1111', share: 0.3 },
    ],
    tracks: withExec,
    tip: 'Product managers and product owners; the chief product officer sits at E9.',
    titles: ['Product Manager', 'Senior Product Manager', 'Group Product Manager', 'CPO'],
  }),
  family({
    id: 'program_management',
    name: 'Program Management',
    group: 'bg_product',
    description: 'Coordinates cross-team programs, delivery and planning.',
    soc: [{ code: '13-1082', share: 1 }],
    tracks: CORE_TRACKS,
    tip: 'Technical and business program managers; project managers in construction are out of scope.',
    titles: ['Technical Program Manager', 'Program Manager', 'Project Manager'],
  }),
  family({
    id: 'design',
    name: 'Design',
    group: 'bg_product',
    description: 'Designs products, interfaces and brand experiences.',
    soc: [
      { code: '15-1255', share: 0.6 },
      { code: '27-1024', share: 0.25 },
      { code: '27-1021', share: 0.15 },
    ],
    tracks: CORE_TRACKS,
    tip: 'Product, UX, visual and brand designers; UX researchers too.',
    titles: ['Product Designer', 'UX Designer', 'Brand Designer', 'UX Researcher'],
  }),
  family({
    id: 'technical_writing',
    name: 'Technical Writing',
    group: 'bg_product',
    description: 'Writes documentation, guides and developer content.',
    soc: [{ code: '27-3042', share: 1 }],
    tracks: CORE_TRACKS,
    tip: 'Technical writers and documentation engineers.',
    titles: ['Technical Writer', 'Documentation Engineer'],
  }),
  family({
    id: 'sales',
    name: 'Sales',
    group: 'bg_go_to_market',
    description: 'Sells the product: account executives, sales development and sales leadership.',
    soc: [
      { code: '41-3091', share: 0.55 },
      { code: '41-4011', share: 0.25 },
      { code: '11-2022', share: 0.2 },
    ],
    tracks: withExec,
    tip: 'Account executives, SDRs and sales managers; the chief revenue officer sits at E9.',
    titles: ['Account Executive', 'Sales Development Representative', 'Sales Manager', 'CRO'],
  }),
  family({
    id: 'sales_engineering',
    name: 'Sales Engineering',
    group: 'bg_go_to_market',
    description: 'Supports sales with technical expertise, demos and solution design.',
    soc: [{ code: '41-9031', share: 1 }],
    tracks: CORE_TRACKS,
    tip: 'Sales engineers, solutions engineers and solutions architects in pre-sales.',
    titles: ['Sales Engineer', 'Solutions Engineer', 'Solutions Architect'],
  }),
  family({
    id: 'business_development',
    name: 'Business Development',
    group: 'bg_go_to_market',
    description: 'Builds partnerships, channels and strategic deals.',
    soc: [
      { code: '41-3091', share: 0.5 },
      { code: '13-1199', share: 0.5 },
    ],
    tracks: CORE_TRACKS,
    tip: 'Partnership and alliance managers.',
    titles: ['Partnerships Manager', 'Business Development Manager'],
  }),
  family({
    id: 'customer_success',
    name: 'Customer Success',
    group: 'bg_go_to_market',
    description: 'Onboards customers and grows their adoption and renewals.',
    soc: [
      { code: '13-1199', share: 0.6 },
      { code: '41-3091', share: 0.4 },
    ],
    tracks: CORE_TRACKS,
    tip: 'Customer success and account managers; ticket-handling support belongs in Customer Support.',
    titles: ['Customer Success Manager', 'Account Manager', 'Implementation Manager'],
  }),
  family({
    id: 'customer_support',
    name: 'Customer Support',
    group: 'bg_go_to_market',
    description: 'Answers customer questions and resolves issues.',
    soc: [
      { code: '43-4051', share: 0.7 },
      { code: '15-1232', share: 0.3 },
    ],
    tracks: withSupport,
    tip: 'Support agents and technical support engineers.',
    titles: ['Customer Support Specialist', 'Technical Support Engineer', 'Support Manager'],
  }),
  family({
    id: 'marketing',
    name: 'Marketing',
    group: 'bg_marketing',
    description: 'Product, growth, content and brand marketing.',
    soc: [
      { code: '13-1161', share: 0.75 },
      { code: '11-2021', share: 0.25 },
    ],
    tracks: withExec,
    tip: 'Product, growth, demand generation and content marketers; the CMO sits at E9.',
    titles: ['Product Marketing Manager', 'Growth Marketer', 'Content Marketer', 'CMO'],
  }),
  family({
    id: 'communications',
    name: 'Communications',
    group: 'bg_marketing',
    description: 'Public relations, internal and executive communications.',
    soc: [
      { code: '27-3031', share: 0.8 },
      { code: '11-2032', share: 0.2 },
    ],
    tracks: CORE_TRACKS,
    tip: 'PR and communications managers.',
    titles: ['Communications Manager', 'PR Manager'],
  }),
  family({
    id: 'finance',
    name: 'Finance',
    group: 'bg_general_administrative',
    description: 'Financial planning and analysis, treasury and corporate finance.',
    soc: [
      { code: '13-2051', share: 0.7 },
      { code: '11-3031', share: 0.3 },
    ],
    tracks: withExec,
    tip: 'FP&A, strategic finance and treasury; the CFO sits at E9.',
    titles: ['Financial Analyst', 'FP&A Manager', 'Finance Director', 'CFO'],
  }),
  family({
    id: 'accounting',
    name: 'Accounting',
    group: 'bg_general_administrative',
    description: 'Accounting, payroll, tax and controllership.',
    soc: [{ code: '13-2011', share: 1 }],
    tracks: withSupport,
    tip: 'Accountants, controllers and payroll specialists.',
    titles: ['Accountant', 'Senior Accountant', 'Controller', 'Payroll Specialist'],
  }),
  family({
    id: 'people',
    name: 'People',
    group: 'bg_general_administrative',
    description: 'HR business partners, people operations and total rewards.',
    soc: [
      { code: '13-1071', share: 0.6 },
      { code: '13-1141', share: 0.15 },
      { code: '11-3121', share: 0.25 },
    ],
    tracks: [...withSupport, 'tr_c'],
    tip: 'HR business partners, people operations and compensation; recruiters belong in Recruiting.',
    titles: ['HR Business Partner', 'People Operations Specialist', 'Compensation Analyst', 'CPO (People)'],
  }),
  family({
    id: 'recruiting',
    name: 'Recruiting',
    group: 'bg_general_administrative',
    description: 'Sources, interviews and hires talent.',
    soc: [{ code: '13-1071', share: 1 }],
    tracks: withSupport,
    tip: 'Recruiters, sourcers and recruiting coordinators.',
    titles: ['Recruiter', 'Technical Recruiter', 'Sourcer', 'Recruiting Coordinator'],
  }),
  family({
    id: 'legal',
    name: 'Legal',
    group: 'bg_general_administrative',
    description: 'Counsel, contracts, compliance and legal operations.',
    soc: [
      { code: '23-1011', share: 0.7 },
      { code: '23-2011', share: 0.3 },
    ],
    tracks: withExec,
    tip: 'Lawyers, paralegals and compliance managers; the general counsel sits at E9.',
    titles: ['Corporate Counsel', 'Paralegal', 'Compliance Manager', 'General Counsel'],
  }),
  family({
    id: 'information_technology',
    name: 'IT',
    group: 'bg_general_administrative',
    description: 'Internal IT: devices, identity, help desk and business systems.',
    soc: [
      { code: '15-1232', share: 0.4 },
      { code: '15-1244', share: 0.4 },
      { code: '15-1231', share: 0.2 },
    ],
    tracks: withSupport,
    tip: 'IT support, systems administrators and business systems engineers.',
    titles: ['IT Support Specialist', 'Systems Administrator', 'IT Manager'],
  }),
  family({
    id: 'business_operations',
    name: 'Operations',
    group: 'bg_general_administrative',
    description: 'Business operations, strategy and revenue operations.',
    soc: [
      { code: '13-1111', share: 0.6 },
      { code: '11-1021', share: 0.4 },
    ],
    tracks: [...withSupport, 'tr_c'],
    tip: 'BizOps, strategy and revenue operations; the COO sits at E9.',
    titles: ['Business Operations Manager', 'Revenue Operations Analyst', 'Strategy Manager', 'COO'],
  }),
  family({
    id: 'supply_chain',
    name: 'Supply Chain',
    group: 'bg_general_administrative',
    description: 'Procurement, logistics and supply planning.',
    soc: [
      { code: '13-1081', share: 0.7 },
      { code: '11-3071', share: 0.3 },
    ],
    tracks: withSupport,
    tip: 'Logisticians, buyers and supply planners.',
    titles: ['Supply Chain Analyst', 'Logistics Manager', 'Buyer'],
  }),
  family({
    id: 'administrative',
    name: 'Administrative',
    group: 'bg_general_administrative',
    description: 'Executive assistants, office management and administration.',
    soc: [
      { code: '43-6011', share: 0.5 },
      { code: '43-6014', share: 0.5 },
    ],
    tracks: ['tr_s', 'tr_p', 'tr_m'],
    tip: 'Executive and administrative assistants and office managers.',
    titles: ['Executive Assistant', 'Office Manager', 'Administrative Assistant'],
  }),
];

export const FAMILY_BLEND_GROUPS: readonly FamilyBlendGroup[] = [
  ['bg_engineering', 'Engineering', 'Software, infrastructure, security, quality and hardware engineering.'],
  ['bg_data', 'Data', 'Data science and analytics.'],
  ['bg_product', 'Product and design', 'Product and program management, design and technical writing.'],
  ['bg_go_to_market', 'Sales and customers', 'Sales, sales engineering, partnerships, customer success and support.'],
  ['bg_marketing', 'Marketing and communications', 'Marketing and communications.'],
  ['bg_general_administrative', 'General and administrative', 'Finance, accounting, people, recruiting, legal, IT, operations, supply chain and administration.'],
].map(([id = '', name = '', description = '']) => ({
  id,
  upstreamId: id,
  name,
  description,
  associatedFamilies: JOB_FAMILIES.filter((f) => f.familyBlendGroupUpstreamId === id).map((f) => f.id),
}));

/** SOC occupation → the family where it weighs most (each family's `socCodes` is the occupation → family map). */
export function familyOfOccupation(): Map<string, string> {
  const best = new Map<string, { familyId: string; share: number }>();
  for (const family of JOB_FAMILIES) {
    for (const { code, share } of family.socCodes) {
      const current = best.get(code);
      if (!current || share > current.share) best.set(code, { familyId: family.id, share });
    }
  }
  return new Map([...best].map(([code, { familyId }]) => [code, familyId]));
}
