import type { components } from '../contract-types.js';

export type PeopleImportKind = components['schemas']['PeopleImportKind'];
export type FieldName = components['schemas']['PeopleImportFieldName'];
export type FieldPermission = components['schemas']['PeopleImportField']['permission'];

export interface FieldDefinition {
  field: FieldName;
  label: string;
  description: string;
  required: boolean;
  permission: FieldPermission;
  /** Header names HR systems and spreadsheets use for it; matched exactly first, then fuzzily. */
  aliases: string[];
}

const field = (
  name: FieldName,
  label: string,
  description: string,
  aliases: string[],
  options: { required?: boolean; permission?: FieldPermission } = {},
): FieldDefinition => ({ field: name, label, description, required: options.required ?? false, permission: options.permission ?? 'team', aliases });

const pay = { permission: 'employeeCompensation' } as const;
const demographic = { permission: 'demographics' } as const;

/** The HRIS file: one row per employee, keyed by the company's own employee id. */
export const EMPLOYEE_FIELDS: readonly FieldDefinition[] = [
  field('employeeId', 'Employee ID', 'The HR system’s id of the employee; re-importing matches on it.', ['employee id', 'employee number', 'emp id', 'emp no', 'employee no', 'worker id', 'personnel number', 'staff id', 'employee code', 'id'], { required: true }),
  field('firstName', 'First name', 'Given name.', ['first name', 'given name', 'legal first name', 'preferred first name', 'forename', 'first'], { required: true }),
  field('lastName', 'Last name', 'Family name.', ['last name', 'family name', 'surname', 'legal last name', 'last'], { required: true }),
  field('email', 'Work e-mail', 'Links the record to the person’s Paybench sign-in.', ['email', 'e-mail', 'work email', 'email address', 'work e-mail', 'business email', 'company email', 'email primary work', 'primary work email']),
  field('title', 'Job title', 'The title as the company writes it.', ['title', 'job title', 'position', 'position title', 'job name', 'role', 'business title']),
  field('department', 'Department', 'Team or department.', ['department', 'dept', 'team', 'division', 'cost center', 'org unit', 'supervisory organization']),
  field('managerEmployeeId', 'Manager employee ID', 'The manager’s employee id: someone in the file or already in Paybench. Empty: no manager.', ['manager id', 'manager employee id', 'manager number', 'reports to', 'reports to id', 'supervisor id', 'line manager id', 'manager emp id', 'supervisor eid']),
  field('country', 'Country', 'ISO 3166 code (DE) or English name (Germany).', ['country', 'country code', 'work country', 'country of work']),
  field('location', 'Location (metro)', 'A location of the market catalog by id (us_seattle), name or alias (Seattle), or a country; a city outside the catalog is placed in the row\'s country.', ['location', 'metro', 'city', 'office', 'work location', 'location id', 'metro area', 'work site']),
  field('currency', 'Pay currency', 'ISO 4217 code of the pay columns; empty: the company’s currency.', ['currency', 'pay currency', 'salary currency', 'currency code', 'local currency', 'compensation currency']),
  field('startDate', 'Start date', 'YYYY-MM-DD.', ['start date', 'hire date', 'date of hire', 'hired', 'original hire date', 'joining date', 'date joined', 'work start date']),
  field('employmentType', 'Employment type', 'full_time, part_time, contractor or intern.', ['employment type', 'worker type', 'employee type', 'type', 'full time part time', 'time type', 'employment history status', 'payroll employment type']),
  field('status', 'Status', 'active or terminated.', ['status', 'employment status', 'employee status', 'active', 'internal status']),
  field('terminationDate', 'Termination date', 'YYYY-MM-DD.', ['termination date', 'end date', 'leave date', 'last day', 'exit date', 'internal termination date']),
  field('jobFamily', 'Job family', 'A job family of the market catalog by id (software_engineering) or name (Software Engineering).', ['job family', 'family', 'job function', 'function', 'job category']),
  field('level', 'Level', 'A level of the market catalog (P3, M4, E9…).', ['level', 'job level', 'grade', 'career level', 'band', 'job grade', 'management level']),
  field('jobCode', 'Job code', 'The HR system’s code for the person’s job; with salary bands matching by job code, it places them in the company job with that code.', ['job code', 'job id', 'position code', 'job profile code', 'job profile id', 'job req code']),
  field('leaveStartDate', 'Leave start date', 'First day of a current or planned leave (YYYY-MM-DD); empty: not on leave.', ['leave start date', 'leave start', 'leave of absence start', 'loa start date']),
  field('leaveEndDate', 'Leave end date', 'Last day of the leave (YYYY-MM-DD); empty while it is open.', ['leave end date', 'leave end', 'leave of absence end', 'loa end date', 'return date']),
  field('performanceRating', 'Performance rating', 'The latest rating, as the company writes it.', ['performance rating', 'performance', 'rating', 'last rating', 'performance score']),
  field('legalEntity', 'Legal entity', 'The company that employs the person (Acme GmbH); pay gap reports are per legal entity.', ['legal entity', 'entity', 'employing company', 'employing entity', 'employer', 'legal employer', 'company entity', 'company'], { permission: 'team' }),
  field('fte', 'FTE', 'Full-time equivalent of the contract: more than 0, at most 1 (0.8, 80 or 80%); empty: 1.', ['fte', 'full time equivalent', 'full-time equivalent', 'fte percent', 'fte %'], { permission: 'team' }),
  field('weeklyHours', 'Contracted hours a week', 'Contractual working hours a week (37.5); empty: FTE × the full-time hours.', ['contracted hours', 'weekly hours', 'standard hours', 'contractual hours', 'scheduled weekly hours', 'hours per week', 'working hours', 'weekly working hours'], { permission: 'team' }),
  field('baseSalary', 'Base salary', 'Annual base pay in the pay currency (120000 or 120,000.00).', ['base salary', 'salary', 'base pay', 'annual salary', 'annual base', 'base', 'annual base salary', 'base compensation', 'compensation rate', 'salary base', 'fix salary annual', 'total base pay annualized'], pay),
  field('bonusTarget', 'Bonus target (amount)', 'Annual target bonus as an amount.', ['bonus target', 'target bonus', 'bonus', 'annual bonus', 'bonus amount', 'target bonus amount'], pay),
  field('bonusTargetPercent', 'Bonus target (%)', 'Annual target bonus as a percentage of base (15 or 15%).', ['bonus target percent', 'target bonus percent', 'bonus %', 'bonus percent', 'target bonus %', 'bonus pct', 'bonus percentage'], pay),
  field('variablePay', 'Variable pay', 'Annual variable pay target.', ['variable pay', 'variable', 'variable compensation', 'ote variable', 'incentive'], pay),
  field('commission', 'Commission', 'Annual commission target.', ['commission', 'commission target', 'sales commission', 'commissions'], pay),
  field('effectiveDate', 'Pay effective date', 'When the pay in the row took effect (YYYY-MM-DD); empty: the start date for new hires, else the day of the import, and only when the pay changed.', ['effective date', 'pay effective date', 'salary effective date', 'compensation effective date', 'as of date', 'compensation start date'], pay),
  field('gender', 'Gender', 'For pay-equity analysis.', ['gender', 'sex', 'gender identity'], demographic),
  field('ethnicity', 'Ethnicity', 'For pay-equity analysis.', ['ethnicity', 'race', 'race ethnicity', 'ethnic group'], demographic),
  field('birthYear', 'Birth year', 'For pay-equity analysis (YYYY).', ['birth year', 'year of birth', 'yob'], demographic),
];

/** The cap-table file: one row per grant, keyed by the cap table's grant id. */
export const GRANT_FIELDS: readonly FieldDefinition[] = [
  field('grantId', 'Grant ID', 'The cap table’s id of the grant; re-importing matches on it.', ['grant id', 'grant number', 'grant no', 'security id', 'certificate id', 'award id', 'grant'], { required: true, ...pay }),
  field('employeeId', 'Employee ID', 'The holder’s employee id, already in Paybench.', ['employee id', 'employee number', 'emp id', 'stakeholder id', 'holder id', 'worker id'], { required: true, ...pay }),
  field('grantType', 'Grant type', 'option (ISO, NSO), rsu, rsa or common_stock.', ['grant type', 'type', 'security type', 'award type', 'equity type', 'instrument'], { required: true, ...pay }),
  field('shares', 'Shares', 'Number of shares granted.', ['shares', 'quantity', 'shares granted', 'number of shares', 'granted shares', 'units', 'options granted'], { required: true, ...pay }),
  field('grantDate', 'Grant date', 'YYYY-MM-DD.', ['grant date', 'issue date', 'date of grant', 'award date', 'board approval date'], { required: true, ...pay }),
  field('exercisePrice', 'Exercise price', 'Per share, in the grant’s currency; required for options.', ['exercise price', 'strike price', 'strike', 'price per share', 'exercise price per share', 'purchase price'], pay),
  field('currency', 'Currency', 'ISO 4217 code of the exercise price; empty: the company’s currency.', ['currency', 'currency code', 'price currency'], pay),
  field('vestingStartDate', 'Vesting start date', 'YYYY-MM-DD; empty: the grant date.', ['vesting start date', 'vesting commencement date', 'vest start date', 'vesting start', 'vcd'], pay),
  field('vestingMonths', 'Vesting months', 'Length of the schedule in months; empty: 48.', ['vesting months', 'vesting period', 'vesting term', 'vesting duration', 'total vesting months'], pay),
  field('cliffMonths', 'Cliff months', 'Months before the first shares vest; empty: 12.', ['cliff months', 'cliff', 'cliff period', 'vesting cliff'], pay),
  field('vestingFrequency', 'Vesting frequency', 'monthly, quarterly or annually; empty: monthly.', ['vesting frequency', 'frequency', 'vesting schedule', 'vest frequency'], pay),
  field('grantReason', 'Grant reason', 'new_hire, refresher, promotion, performance or other; empty: new_hire.', ['grant reason', 'reason', 'grant purpose', 'award reason'], pay),
];

export function fieldsOf(kind: PeopleImportKind): readonly FieldDefinition[] {
  return kind === 'employees' ? EMPLOYEE_FIELDS : GRANT_FIELDS;
}
