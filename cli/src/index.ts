import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import type { Connection } from './client.js';
import type { BandsExportOptions, BandsImportOptions } from './commands/bands.js';
import type { QueryOptions } from './commands/benchmark.js';
import type { OutputOptions } from './output.js';
import type { BenchmarkSettingsOptions } from './commands/benchmarkSettings.js';
import type { CandidateUpdateOptions } from './commands/candidates.js';
import type { AddPersonOptions, CreateCompanyOptions } from './commands/companies.js';
import type { ChainsImportOptions, CycleEmployeesOptions, CyclesExportOptions } from './commands/cycles.js';
import type { PayEquityAdjustedOptions, PayEquityReportOptions } from './commands/payEquity.js';

// Each command's module (and with it the HTTP client, ink and React) loads only when that command
// runs, so `--help`, `--version` and completion start at once.
const load = {
  admin: () => import('./commands/admin.js'),
  auth: () => import('./commands/auth.js'),
  bands: () => import('./commands/bands.js'),
  catalog: () => import('./commands/catalog.js'),
  benchmark: () => import('./commands/benchmark.js'),
  benchmarkSettings: () => import('./commands/benchmarkSettings.js'),
  candidates: () => import('./commands/candidates.js'),
  companies: () => import('./commands/companies.js'),
  completion: () => import('./commands/completion.js'),
  cycles: () => import('./commands/cycles.js'),
  employees: () => import('./commands/employees.js'),
  employeeRecords: () => import('./commands/employeeRecords.js'),
  grants: () => import('./commands/grants.js'),
  health: () => import('./commands/health.js'),
  jobs: () => import('./commands/jobs.js'),
  offers: () => import('./commands/offers.js'),
  postings: () => import('./commands/postings.js'),
  payEquity: () => import('./commands/payEquity.js'),
  roles: () => import('./commands/roles.js'),
  rates: () => import('./commands/rates.js'),
  releases: () => import('./commands/releases.js'),
  savedQueries: () => import('./commands/savedQueries.js'),
  tokens: () => import('./commands/tokens.js'),
  users: () => import('./commands/users.js'),
};

/** Repeatable options also take commas: `--level P2,P3` is `--level P2 --level P3`. */
const collect = (value: string, previous: string[] = []): string[] => [...previous, ...value.split(',').map((part) => part.trim()).filter(Boolean)];

interface GlobalOptions {
  url: string;
  token?: string;
  profile: string;
  json?: boolean;
  color: boolean;
  verbose?: boolean;
}

interface Context {
  connection: Connection;
  output: OutputOptions;
  profile: string;
}

const program = new Command()
  .name('paybench')
  .description('Paybench from the terminal: user and role imports, benchmarking exports.')
  .version((JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version)
  .addOption(new Option('--url <url>', 'Paybench server address').env('PAYBENCH_URL').default('http://localhost:3000'))
  .addOption(new Option('--token <token>', 'API token (instead of the signed-in profile)').env('PAYBENCH_TOKEN'))
  .addOption(new Option('--profile <name>', 'which saved sign-in to use').env('PAYBENCH_PROFILE').default('default'))
  .option('--json', 'print machine-readable JSON on stdout')
  .option('--no-color', 'print without colours (also NO_COLOR)')
  .option('--verbose', 'print more detail on failures')
  .showHelpAfterError()
  // Usage mistakes (an unknown command or option, a missing argument or required option) exit 2,
  // like any other rejected input; --help and --version exit 0. Subcommands inherit this.
  .exitOverride((error: CommanderError) => {
    const asked = error.code === 'commander.helpDisplayed' || error.code === 'commander.version';
    process.exit(asked || error.exitCode === 0 ? 0 : 2);
  });

/**
 * Runs a command body and turns any failure into a message and an exit code. Commands that sign
 * in or out (`signedIn: false`) get the address only: they must not refresh a stale sign-in first.
 * Commands that need a sign-in (`signedIn: true`) say "Not signed in" before asking the server,
 * so a missing sign-in never reads as a server that cannot be reached; `'optional'` asks anyway.
 */
function run<A extends unknown[]>(body: (ctx: Context, ...args: A) => Promise<void>, { signedIn = true as boolean | 'optional' } = {}) {
  return async (...args: A) => {
    const options = program.opts<GlobalOptions>();
    const { isInteractive } = await import('./output.js');
    const output: OutputOptions = {
      json: Boolean(options.json),
      color: options.color && !process.env.NO_COLOR && isInteractive(process.stderr),
      verbose: Boolean(options.verbose),
    };
    try {
      const settings = { url: options.url, urlGiven: program.getOptionValueSource('url') !== 'default', token: options.token, profile: options.profile };
      const session = await import('./session.js');
      const connection = signedIn ? await session.resolveConnection(settings) : { url: options.url, token: undefined };
      if (signedIn === true && !connection.token) throw session.notSignedIn(settings, connection.url);
      await body({ connection, output, profile: options.profile }, ...args);
    } catch (error) {
      process.exitCode = (await import('./output.js')).reportFailure(error, output);
    }
  };
}

program
  .command('health')
  .description('check that the server is up, its version and its database')
  .action(run(async ({ connection, output }) => (await load.health()).healthCommand(connection, output), { signedIn: 'optional' }));

program.command('login').description('sign in through the browser (device code) and keep the sign-in in the profile').action(run(async (ctx) => (await load.auth()).loginCommand(ctx), { signedIn: false }));
program.command('logout').description('forget the profile’s sign-in').action(run(async (ctx) => (await load.auth()).logoutCommand(ctx), { signedIn: false }));
program.command('whoami').description('who the CLI is signed in as (--json: the person, e-mail included)').action(run(async (ctx) => (await load.auth()).whoamiCommand(ctx)));

const admin = program
  .command('admin')
  .description('the install itself: backup and restore, run where Paybench is installed with the server’s environment (not over HTTP); market releases (internal admins, over HTTP)');
admin
  .command('backup <directory>')
  .description('back up the database (SQLite: VACUUM INTO; Postgres: pg_dump) and the stored files into a new directory')
  .action(run(async (_ctx, directory: string) => (await load.admin()).adminBackupCommand('backup', directory), { signedIn: false }));
admin
  .command('restore <directory>')
  .description('restore a backup made by `admin backup` (stop every node first; SQLite: the database file must not exist)')
  .action(run(async (_ctx, directory: string) => (await load.admin()).adminBackupCommand('restore', directory), { signedIn: false }));

const releases = admin.command('releases').description('market data releases (internal admins): list, build, publish, pin');
releases.command('list').description('every release, newest first, with its state and privacy verdict').action(run(async (ctx) => (await load.releases()).listReleasesCommand(ctx)));
releases
  .command('build')
  .description('build a draft release from the demo market’s parameters and the participants’ records; prints its id')
  .option('--seed <n>', 'generator seed (the same parameters always build the same release)', '42')
  .option('--records <n>', 'generated employee records, at least 1000, or 0 for the participants’ records alone', '20000')
  .option('--no-wait', 'print the job id and return at once')
  .action(run(async (ctx, options: { seed: string; records: string; wait: boolean }) => (await load.releases()).buildReleaseCommand(ctx, options)));
releases.command('publish <releaseId>').description('publish a draft whose privacy scorecard passed; every node serves it').action(run(async (ctx, id: string) => (await load.releases()).publishReleaseCommand(ctx, id)));
releases.command('pin <releaseId>').description('serve this published release instead of the newest one (a roll-back)').action(run(async (ctx, id: string) => (await load.releases()).pinReleaseCommand(ctx, id)));

const companies = program.command('companies').description('companies (internal admins)');
companies
  .command('create')
  .description('create a company with its first admin, who is e-mailed a link to choose a password; prints the company id')
  .requiredOption('--name <name>', 'the company name')
  .option('--domain <domain>', 'an e-mail domain of the company (repeat or comma-separate)', collect)
  .option('--currency <code>', 'the company currency (ISO 4217, default USD)')
  .requiredOption('--admin-email <email>', 'the first admin’s e-mail address')
  .requiredOption('--admin-first-name <name>', 'the first admin’s first name')
  .requiredOption('--admin-last-name <name>', 'the first admin’s last name')
  .option('--no-invitation', 'create the admin without e-mailing an invitation')
  .action(run(async (ctx, options: CreateCompanyOptions) => (await load.companies()).createCompanyCommand(ctx, options)));
companies
  .command('add-person <companyId>')
  .description('add a person with roles to a customer’s company and e-mail them an invitation; prints their user id')
  .requiredOption('--email <email>', 'their e-mail address')
  .requiredOption('--first-name <name>', 'their first name')
  .requiredOption('--last-name <name>', 'their last name')
  .option('--role <key>', 'a role key of the company (repeat or comma-separate; default: the employee role)', collect)
  .option('--candidate', 'a candidate, who signs in to read their offers and holds no roles')
  .option('--no-invitation', 'add them without e-mailing an invitation')
  .action(run(async (ctx, companyId: string, options: AddPersonOptions) => (await load.companies()).addPersonCommand(ctx, companyId, options)));

const tokens = program.command('tokens').description('personal API tokens for scripts');
tokens
  .command('create <name>')
  .description('create a token and print its secret (shown once)')
  .option('--expires-in-days <days>', 'let the token expire after this many days')
  .option('--dry-run', 'say what would be created and write nothing')
  .action(run(async (ctx, name: string, options: { expiresInDays?: string; dryRun?: boolean }) => (await load.tokens()).createTokenCommand(ctx, name, options)));
tokens.command('list').description('your tokens').action(run(async (ctx) => (await load.tokens()).listTokensCommand(ctx)));
tokens
  .command('revoke <id>')
  .description('revoke a token')
  .option('--dry-run', 'say what would be revoked and write nothing')
  .action(run(async (ctx, id: string, options: { dryRun?: boolean }) => (await load.tokens()).revokeTokenCommand(ctx, id, options)));

const users = program.command('users').description('the company’s users');
users
  .command('import <file>')
  .description('create or update users from a CSV (email, firstName, lastName, roles, manager); all or nothing')
  .option('--dry-run', 'print the plan and write nothing')
  .option('--invite', 'e-mail an invitation (a link to choose a password) to each person the file creates, once the import is written')
  .action(run(async (ctx, file: string, options: { dryRun?: boolean; invite?: boolean }) => (await load.users()).importUsersCommand(ctx, file, options)));
users
  .command('export')
  .description('every user and their roles as CSV (the columns import reads)')
  .option('-o, --output <file>', 'write to a file instead of stdout')
  .action(run(async (ctx, options: { output?: string }) => (await load.users()).exportUsersCommand(ctx, options)));
users
  .command('list')
  .description('active users, by e-mail, with their roles and manager')
  .option('--role <key>', 'only holders of this role')
  .option('--search <text>', 'match name or e-mail')
  .option('--removed', 'removed users instead of active ones')
  .action(run(async (ctx, options: { role?: string; search?: string; removed?: boolean }) => (await load.users()).listUsersCommand(ctx, options)));

const roles = program.command('roles').description('roles and who holds them');
roles
  .command('import <file>')
  .description('create or update roles from a CSV (key, name, description, permissions as JSON); all or nothing')
  .option('--dry-run', 'print the plan and write nothing')
  .action(run(async (ctx, file: string, options: { dryRun?: boolean }) => (await load.roles()).importRolesCommand(ctx, file, options)));
roles.command('export').description('the roles as CSV (the columns import reads)').action(run(async (ctx) => (await load.roles()).exportRolesCommand(ctx)));
roles.command('list').description('the roles with their member counts').action(run(async (ctx) => (await load.roles()).listRolesCommand(ctx)));
roles
  .command('assign <role> <email>')
  .description('give a person a role (by key or name), keeping the ones they hold')
  .option('--dry-run', 'say what would change and write nothing')
  .action(run(async (ctx, role: string, email: string, options: { dryRun?: boolean }) => (await load.roles()).assignRoleCommand(ctx, role, email, options)));

const rates = program.command('rates').description('exchange rates');
rates
  .command('import <file>')
  .description('load dated ECB reference rates from a CSV in the ECB format (internal admins); all or nothing')
  .option('--dry-run', 'say what would change and write nothing')
  .action(run(async (ctx, file: string, options: { dryRun?: boolean }) => (await load.rates()).importRatesCommand(ctx, file, options)));

const employees = program.command('employees').description('employee records from the HR system (HRIS files)');
employees
  .command('import <file>')
  .description('create or update employees from a CSV or XLSX export; all or nothing, idempotent by employee id')
  .option('--mapping <name>', 'use a saved column mapping (default: the columns the server recognises)')
  .option('--dry-run', 'print the plan and write nothing')
  .action(run(async (ctx, file: string, options: { mapping?: string; dryRun?: boolean }) => (await load.employees()).importEmployeesCommand(ctx, file, options)));
const employeeMappings = employees.command('mappings').description('saved column mappings of HRIS files');
employeeMappings.command('list').description('the saved mappings').action(run(async (ctx) => (await load.employees()).listMappingsCommand(ctx, 'employees')));
employeeMappings
  .command('delete <name>')
  .description('delete a saved mapping by its name')
  .action(run(async (ctx, name: string) => (await load.employees()).deleteMappingCommand(ctx, 'employees', name)));
employees
  .command('reports <employee>')
  .description('the people who report directly to an employee (by employee number or id)')
  .action(run(async (ctx, employee: string) => (await load.employeeRecords()).directReportsCommand(ctx, employee)));
employees
  .command('pay <employee>')
  .description('the package in force on a date (base, bonus target, variable, commission, benefits, total cash), each with its effective date')
  .option('--as-of <date>', 'the date (today by default)')
  .action(run(async (ctx, employee: string, options: { asOf?: string }) => (await load.employeeRecords()).currentPayCommand(ctx, employee, options)));

const grants = program.command('grants').description('equity grants from the cap table');
grants
  .command('import <file>')
  .description('create or update equity grants from a CSV or XLSX cap-table export; all or nothing, idempotent by grant id')
  .option('--mapping <name>', 'use a saved column mapping')
  .option('--dry-run', 'print the plan and write nothing')
  .action(run(async (ctx, file: string, options: { mapping?: string; dryRun?: boolean }) => (await load.grants()).importGrantsCommand(ctx, file, options)));
grants
  .command('vesting <employee> [grant]')
  .description('a grant’s vesting schedule, what has vested and its value (the employee by number or id; the grant by the cap table’s grant id, or their only grant)')
  .option('--as-of <date>', 'the date (today by default)')
  .action(run(async (ctx, employee: string, grant: string | undefined, options: { asOf?: string }) => (await load.employeeRecords()).vestingCommand(ctx, employee, grant, options)));
const grantMappings = grants.command('mappings').description('saved column mappings of cap-table files');
grantMappings.command('list').description('the saved mappings').action(run(async (ctx) => (await load.employees()).listMappingsCommand(ctx, 'equityGrants')));
grantMappings
  .command('delete <name>')
  .description('delete a saved mapping by its name')
  .action(run(async (ctx, name: string) => (await load.employees()).deleteMappingCommand(ctx, 'equityGrants', name)));

const jobs = program.command('jobs').description('your background jobs');
jobs
  .command('list')
  .description('your recent jobs')
  .option('--days <n>', 'how far back (default 7)')
  .action(run(async (ctx, options: { days?: string }) => (await load.jobs()).listJobsCommand(ctx, options)));
jobs.command('watch <id>').description('follow a job until it ends').action(run(async (ctx, id: string) => (await load.jobs()).watchJobCommand(ctx, id)));
jobs.command('cancel <id>').description('cancel a queued or running job').action(run(async (ctx, id: string) => (await load.jobs()).cancelJobCommand(ctx, id)));

const downloads = program.command('downloads').description('files your jobs produced');
downloads
  .command('get <id>')
  .description('write a download to stdout, or to a file')
  .option('-o, --output <file>', 'write to a file instead of stdout')
  .action(run(async (ctx, id: string, options: { output?: string }) => (await load.jobs()).getDownloadCommand(ctx, id, options)));

const catalog = program.command('catalog').description('the benchmarking catalog: job families and locations');
catalog.command('families').description('job families and the family blend groups that unite them').action(run(async (ctx) => (await load.catalog()).catalogFamiliesCommand(ctx)));
catalog
  .command('locations')
  .description('locations with the served release’s coverage (label, employees, compensation types)')
  .option('--kind <kind>', 'only region, country, tier or metro')
  .action(run(async (ctx, options: { kind?: string }) => (await load.catalog()).catalogLocationsCommand(ctx, options)));

const benchmark = program.command('benchmark').description('market data: what can be asked, query, export');
benchmark.command('filters').description('the families, levels, locations and other choices a query takes').action(run(async (ctx) => (await load.benchmark()).filtersCommand(ctx)));
benchmark.command('access').description('whether benchmarking is on for your company, your access, the preferred location and the market release').action(run(async (ctx) => (await load.benchmarkSettings()).benchmarkAccessCommand(ctx)));
const saved = benchmark.command('saved').description('the company’s saved report queries (the data explorer’s saved reports)');
saved.command('list').description('the saved queries (id, name, description, last change)').action(run(async (ctx) => (await load.savedQueries()).listSavedQueriesCommand(ctx)));
saved
  .command('rename <query> <name>')
  .description('rename a saved query (by its name or id), keeping its request; a change someone made meanwhile is refused')
  .option('--description <text>', 'a new description as well')
  .action(run(async (ctx, query: string, name: string, options: { description?: string }) => (await load.savedQueries()).renameSavedQueryCommand(ctx, query, name, options)));
benchmark
  .command('settings')
  .description('the company’s benchmarking settings; with options, change those and keep the rest')
  .option('--location <location>', 'the preferred benchmarking location: Europe, Canada, "United States" or none')
  .option('--override-base', 'override the base compensation requirement')
  .option('--no-override-base', 'keep the base compensation requirement')
  .option('--override-equity', 'override the equity requirement')
  .option('--no-override-equity', 'keep the equity requirement')
  .option('--synthetic-locations', 'fill withheld locations of location insights with synthetic estimates')
  .option('--no-synthetic-locations', 'leave withheld locations withheld')
  .action(run(async (ctx, options: BenchmarkSettingsOptions) => (await load.benchmarkSettings()).benchmarkSettingsCommand(ctx, options)));

/** The choices `benchmark query` and `benchmark export` share; names or ids, repeatable or comma-separated. */
function marketOptions(command: Command): Command {
  return command
    .requiredOption('--family <family>', 'job family (repeatable)', collect)
    .requiredOption('--level <level>', 'level or level blend (repeatable)', collect)
    .requiredOption('--location <location>', 'location, e.g. 840 or 840_1 (repeatable: one market each, up to 10)', collect)
    .option('--blend', 'pool every --location into one market (one row per job, labelled as the blend)')
    .option('--industry <industry>', 'industry (repeatable; default: all industries)', collect)
    .option('--stage <stage>', 'company stage (repeatable; default: every stage)', collect)
    .option('--ownership <group>', 'ownership group (repeatable; default: every group)', collect)
    .option('--contractors', 'include contractors with the employees (default: employees only)')
    .option('--comp-type <type>', 'compensation type (repeatable; default: base)', collect)
    .option('--percentiles <list>', 'any of 10,25,40,50,60,75,90, comma-separated')
    .option('--currency <code>', 'ISO 4217 code; default: local currencies');
}

const withDefaults = <T extends QueryOptions>(options: T): T => ({ ...options, compType: options.compType?.length ? options.compType : ['base'] });

marketOptions(benchmark.command('query').description('percentiles for the chosen slice, one row per market and job: a table, --json or --csv'))
  .option('--csv', 'print CSV instead of a table')
  .action(run(async (ctx, options: QueryOptions & { csv?: boolean }) => (await load.benchmark()).queryCommand(ctx, withDefaults(options))));
marketOptions(benchmark.command('export').description('export the slice with the server’s job; the file goes to stdout or -o'))
  .option('--format <format>', 'csv or xlsx', 'csv')
  .option('--no-wait', 'print the job id and return at once')
  .option('-o, --output <file>', 'write to a file instead of stdout')
  .action(run(async (ctx, options: QueryOptions & { format: 'csv' | 'xlsx'; wait: boolean; output?: string }) => (await load.benchmark()).exportCommand(ctx, withDefaults(options))));

const bands = program.command('bands').description('salary bands: band sets, their export and import');
bands.command('list').description('the band sets (id, name, status, currency, band count, effective date)').action(run(async (ctx) => (await load.bands()).listBandSetsCommand(ctx)));
bands
  .command('export <bandSetId>')
  .description('export a band set’s bands with the server’s job; the file goes to stdout or -o')
  .option('--format <format>', 'csv or xlsx', 'csv')
  .option('--no-wait', 'print the job id and return at once')
  .option('-o, --output <file>', 'write to a file instead of stdout')
  .action(run(async (ctx, bandSetId: string, options: BandsExportOptions) => (await load.bands()).exportBandSetCommand(ctx, bandSetId, options)));
bands
  .command('import <file>')
  .description('import a bands file (CSV or XLSX, the export’s columns) into a draft set with the server’s job; all or nothing')
  .option('--set <bandSetId>', 'the draft band set to import into (required)')
  .option('--dry-run', 'print the plan and write nothing')
  .action(run(async (ctx, file: string, options: BandsImportOptions) => (await load.bands()).importBandsCommand(ctx, file, options)));

const offers = program.command('offers').description('offers to candidates: the list and its export');
offers
  .command('list')
  .description('the offers (id, candidate, title, state, base, start date, expiry date)')
  .option('--state <state>', 'only offers in this state (draft, pendingApproval, approved, sent, opened, accepted, declined, expired, rescinded, hireCancelled)')
  .action(run(async (ctx, options: { state?: string }) => (await load.offers()).listOffersCommand(ctx, options)));
offers
  .command('export')
  .description('export the offers with the server’s job; the file goes to stdout or -o')
  .option('--state <state>', 'only offers in this state')
  .option('--format <format>', 'csv or xlsx', 'csv')
  .option('--no-wait', 'print the job id and return at once')
  .option('-o, --output <file>', 'write to a file instead of stdout')
  .action(run(async (ctx, options: { state?: string; format: string; wait: boolean; output?: string }) => (await load.offers()).exportOffersCommand(ctx, options)));

const candidates = program.command('candidates').description('candidates for offers: list, show, correct, remove');
candidates
  .command('list')
  .description('the candidates (id, e-mail, name, title, status)')
  .option('--search <text>', 'match name, e-mail or title')
  .action(run(async (ctx, options: { search?: string }) => (await load.candidates()).listCandidatesCommand(ctx, options)));
candidates.command('show <candidate>').description('one candidate, by e-mail or id').action(run(async (ctx, candidate: string) => (await load.candidates()).showCandidateCommand(ctx, candidate)));
candidates
  .command('update <candidate>')
  .description('correct a candidate (by e-mail or id); a change someone made meanwhile is refused, not overwritten')
  .option('--email <email>', 'their e-mail address')
  .option('--first-name <name>', 'their first name')
  .option('--last-name <name>', 'their last name')
  .option('--title <title>', 'the role they are considered for')
  .option('--currency <code>', 'the currency of their offers (ISO 4217)')
  .option('--status <status>', 'active, hired, withdrawn or archived')
  .option('--source <source>', 'where they came from')
  .action(run(async (ctx, candidate: string, options: CandidateUpdateOptions) => (await load.candidates()).updateCandidateCommand(ctx, candidate, options)));
candidates.command('delete <candidate>').description('remove a candidate (by e-mail or id)').action(run(async (ctx, candidate: string) => (await load.candidates()).deleteCandidateCommand(ctx, candidate)));

offers
  .command('letter <offerId>')
  .description('the offer letter as the candidate sees it (read by the company: nothing is recorded as a view)')
  .action(run(async (ctx, offerId: string) => (await load.offers()).offerLetterCommand(ctx, offerId)));

const postings = program.command('postings').description('job postings with pay ranges from the live bands: the list and the ATS export');
postings
  .command('list')
  .description('the postings, one line per place (id, title, state, place, range, checks, stale)')
  .option('--stale', 'only postings a later live band set no longer holds')
  .action(run(async (ctx, options: { stale?: boolean }) => (await load.postings()).listPostingsCommand(ctx, options)));
postings
  .command('export')
  .description('export the postings (one row per place) for an applicant-tracking system with the server’s job; the file goes to stdout or -o')
  .option('--state <state>', 'only postings in this state (draft, pendingApproval, open, closed)')
  .option('--format <format>', 'csv or xlsx', 'csv')
  .option('--no-wait', 'print the job id and return at once')
  .option('-o, --output <file>', 'write to a file instead of stdout')
  .action(run(async (ctx, options: { state?: string; format: string; wait: boolean; output?: string }) => (await load.postings()).exportPostingsCommand(ctx, options)));
const payEquity = program.command('pay-equity').description('pay equity: the pay gap report (EU Directive Art. 9, UK figures)');
payEquity
  .command('report')
  .description('the pay gap report of a reference year: a summary, or the PDF, CSV, XLSX or JSON to stdout or -o')
  .requiredOption('--year <year>', 'the reference year, e.g. 2026')
  .option('--format <format>', 'pdf, csv, xlsx or json (a summary when left out)', 'text')
  .option('--as-of <date>', 'the reference date pay is read on (the year’s last day by default)')
  .option('--minimum-group <n>', 'the fewest women or men a figure is published for (5 by default)')
  .option('--hours-per-week <hours>', 'full-time hours a week (40 by default)')
  .option('--legal-entity <name>', 'the employer reported on, as people data names it (every legal entity together by default)')
  .option('-o, --output <file>', 'write to a file instead of stdout')
  .action(run(async (ctx, options: PayEquityReportOptions) => (await load.payEquity()).payEquityReportCommand(ctx, options)));
payEquity
  .command('adjusted-gap')
  .description('the adjusted gap of a reference year, its decomposition and the cost to close: a summary, or the CSV, XLSX or JSON to stdout or -o')
  .requiredOption('--year <year>', 'the reference year, e.g. 2026')
  .option('--format <format>', 'csv, xlsx or json (a summary when left out)', 'text')
  .option('--as-of <date>', 'the reference date pay is read on (the year’s last day by default)')
  .option('--legal-entity <name>', 'fit within this employer, as people data names it (every legal entity together by default)')
  .option('--controls <list>', 'comma-separated: category, level, family, location, department, tenure, rating, employmentType (level,family,location,tenure by default)')
  .option('--threshold <percent>', 'raise a woman paid under her predicted pay by more than this (0 by default)')
  .option('-o, --output <file>', 'write to a file instead of stdout')
  .action(run(async (ctx, options: PayEquityAdjustedOptions) => (await load.payEquity()).payEquityAdjustedCommand(ctx, options)));

payEquity
  .command('evaluation')
  .description('the job evaluation (the documentation of the categories of workers) as CSV, XLSX or PDF, to stdout or -o')
  .option('--format <format>', 'csv, xlsx or pdf', 'csv')
  .option('-o, --output <file>', 'write to a file instead of stdout')
  .action(run(async (ctx, options: { format: string; output?: string }) => (await load.payEquity()).payEquityEvaluationCommand(ctx, options)));

const cycles = program.command('cycles').description('merit cycles: the list, one cycle, its budgets, the payroll file and approval chains');
cycles
  .command('list')
  .description('the merit cycles (id, name, state, effective date, currency, eligible, worksheets)')
  .option('--state <state>', 'only cycles in this state (draft, active, closed, cancelled)')
  .action(run(async (ctx, options: { state?: string }) => (await load.cycles()).listCyclesCommand(ctx, options)));
cycles
  .command('show <cycleId>')
  .description('one cycle: its settings, budget totals and progress')
  .action(run(async (ctx, cycleId: string) => (await load.cycles()).showCycleCommand(ctx, cycleId)));
cycles
  .command('budgets <cycleId>')
  .description('each worksheet’s budget (allocated, recommended, used, remaining) and the total, in the cycle currency')
  .action(run(async (ctx, cycleId: string) => (await load.cycles()).cycleBudgetsCommand(ctx, cycleId)));
cycles
  .command('rollup <cycleId>')
  .description('the bottom-up view: each manager’s branch, what it planned against its top-down allocation, and the difference')
  .action(run(async (ctx, cycleId: string) => (await load.cycles()).cycleRollupCommand(ctx, cycleId)));
cycles
  .command('employees <cycleId>')
  .description('the cycle’s employees in your reach: current pay, merit, new pay, reviewed')
  .option('--worksheet <worksheetId>', 'only this worksheet’s rows')
  .action(run(async (ctx, cycleId: string, options: CycleEmployeesOptions) => (await load.cycles()).cycleEmployeesCommand(ctx, cycleId, options)));
cycles
  .command('letters')
  .description('the cycle’s reward letters')
  .command('release <cycleId>')
  .description('release the reward letters to managers (they read their reports’ letters), then to employees')
  .requiredOption('--to <audience>', 'managers or employees')
  .action(run(async (ctx, cycleId: string, options: { to: string }) => (await load.cycles()).releaseLettersCommand(ctx, cycleId, options)));
cycles
  .command('export <cycleId>')
  .description('the payroll CSV with the server’s job; the file goes to stdout or --out')
  .option('-o, --out <file>', 'write to a file instead of stdout')
  .option('--no-wait', 'print the job id and return at once')
  .action(run(async (ctx, cycleId: string, options: CyclesExportOptions) => (await load.cycles()).exportCycleCommand(ctx, cycleId, options)));
cycles
  .command('chains')
  .description('the cycle’s approval chains')
  .command('import <cycleId> <file>')
  .description('replace the cycle’s approval chains from a CSV file (Manager email, Approver 1 email, …); all or nothing')
  .option('--dry-run', 'check the file and write nothing')
  .action(run(async (ctx, cycleId: string, file: string, options: ChainsImportOptions) => (await load.cycles()).importChainsCommand(ctx, cycleId, file, options)));

program
  .command('completion <shell>')
  .description('print shell completion for bash or zsh (eval "$(paybench completion bash)")')
  .action(run(async (_ctx, shell: string) => (await load.completion()).completionCommand(program, shell), { signedIn: false }));

await program.parseAsync(process.argv);
