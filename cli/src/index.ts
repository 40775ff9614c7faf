import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import type { Connection } from './client.js';
import type { BandsExportOptions, BandsImportOptions } from './commands/bands.js';
import type { QueryOptions } from './commands/benchmark.js';
import type { OutputOptions } from './output.js';
import type { CreateCompanyOptions } from './commands/companies.js';
import type { ChainsImportOptions, CyclesExportOptions } from './commands/cycles.js';

// Each command's module (and with it the HTTP client, ink and React) loads only when that command
// runs, so `--help`, `--version` and completion start at once.
const load = {
  auth: () => import('./commands/auth.js'),
  bands: () => import('./commands/bands.js'),
  benchmark: () => import('./commands/benchmark.js'),
  companies: () => import('./commands/companies.js'),
  completion: () => import('./commands/completion.js'),
  cycles: () => import('./commands/cycles.js'),
  employees: () => import('./commands/employees.js'),
  grants: () => import('./commands/grants.js'),
  health: () => import('./commands/health.js'),
  jobs: () => import('./commands/jobs.js'),
  offers: () => import('./commands/offers.js'),
  roles: () => import('./commands/roles.js'),
  rates: () => import('./commands/rates.js'),
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
employees.command('mappings').description('saved column mappings of HRIS files').command('list').description('the saved mappings').action(run(async (ctx) => (await load.employees()).listMappingsCommand(ctx, 'employees')));

const grants = program.command('grants').description('equity grants from the cap table');
grants
  .command('import <file>')
  .description('create or update equity grants from a CSV or XLSX cap-table export; all or nothing, idempotent by grant id')
  .option('--mapping <name>', 'use a saved column mapping')
  .option('--dry-run', 'print the plan and write nothing')
  .action(run(async (ctx, file: string, options: { mapping?: string; dryRun?: boolean }) => (await load.grants()).importGrantsCommand(ctx, file, options)));

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

const benchmark = program.command('benchmark').description('market data: what can be asked, query, export');
benchmark.command('filters').description('the families, levels, locations and other choices a query takes').action(run(async (ctx) => (await load.benchmark()).filtersCommand(ctx)));

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
