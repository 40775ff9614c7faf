/** The executive-compensation vocabulary: titles people search for, and the market cells they read. */

export interface ExecutiveTitle {
  id: string;
  title: string;
  section: string;
  /** The job family and level whose records price this title. */
  jobFamilyId: string;
  levelId: string;
  /** Other ways people write the title, for fuzzy matching. */
  aliases: string[];
}

type Row = [id: string, title: string, family: string, aliases: string[]];

const section = (name: string, levelId: string, rows: Row[]): ExecutiveTitle[] =>
  rows.map(([id, title, jobFamilyId, aliases]) => ({ id, title, section: name, jobFamilyId, levelId, aliases }));

export const EXECUTIVE_TITLES: readonly ExecutiveTitle[] = [
  ...section('C-suite', 'e9', [
    ['ceo', 'Chief Executive Officer', 'business_operations', ['CEO', 'Chief Executive', 'Managing Director', 'President']],
    ['cto', 'Chief Technology Officer', 'software_engineering', ['CTO', 'Chief Engineering Officer']],
    ['cfo', 'Chief Financial Officer', 'finance', ['CFO', 'Finance Director']],
    ['coo', 'Chief Operating Officer', 'business_operations', ['COO', 'Chief Operations Officer']],
    ['cpo', 'Chief Product Officer', 'product_management', ['CPO', 'Head of Product']],
    ['cmo', 'Chief Marketing Officer', 'marketing', ['CMO', 'Chief Growth Officer']],
    ['cro', 'Chief Revenue Officer', 'sales', ['CRO', 'Chief Sales Officer', 'Chief Commercial Officer']],
    ['chro', 'Chief People Officer', 'people', ['CHRO', 'Chief Human Resources Officer', 'Chief People Officer']],
    ['clo', 'General Counsel', 'legal', ['CLO', 'Chief Legal Officer']],
    ['ciso', 'Chief Information Security Officer', 'security_engineering', ['CISO', 'Chief Security Officer']],
  ]),
  ...section('Vice presidents', 'e7', [
    ['vp_engineering', 'VP of Engineering', 'software_engineering', ['VP Engineering', 'Head of Engineering']],
    ['vp_product', 'VP of Product', 'product_management', ['VP Product']],
    ['vp_sales', 'VP of Sales', 'sales', ['VP Sales', 'Head of Sales']],
    ['vp_marketing', 'VP of Marketing', 'marketing', ['VP Marketing', 'Head of Marketing']],
    ['vp_finance', 'VP of Finance', 'finance', ['VP Finance', 'Head of Finance', 'Controller']],
    ['vp_people', 'VP of People', 'people', ['VP HR', 'Head of People', 'Head of HR']],
    ['vp_customer_success', 'VP of Customer Success', 'customer_success', ['VP Customer Success', 'Head of Customer Success']],
    ['vp_data', 'VP of Data', 'data_science', ['Head of Data', 'VP Data Science']],
  ]),
];

export const DEFAULT_EXECUTIVE_TITLE_ID = 'ceo';
