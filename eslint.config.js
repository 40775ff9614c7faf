import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** A knex table argument naming a people table ('employees', 'compensation_records as c', …). */
const PEOPLE_TABLE = '/^(employees|compensation_records|equity_grants)( as \\w+)?$/';
/** Raw SQL naming one after from, join, into or update. */
const PEOPLE_TABLE_IN_SQL = '/\\b(from|join|into|update)\\s+(employees|compensation_records|equity_grants)\\b/i';

/**
 * A currency's decimal places are ISO 4217's, from the shipped table (the server's money module,
 * api/src/money/; the web's, web/src/ui/format.ts, and the CLI's, cli/src/money.ts, learn them from
 * GET /api/currencies). `Intl`'s CLDR data disagrees on some twenty currencies (HUF: ISO 2, CLDR 0),
 * so nothing else asks it for digits or writes a currency with it.
 */
const MONEY_MODULES = ['api/src/money/**', 'web/src/ui/format.ts', 'cli/src/money.ts'];
const MONEY_MESSAGE = 'Amounts are written by the money module (api/src/money/format.ts, web/src/ui/format.ts, cli/src/money.ts), with ISO 4217 decimals: Intl’s currency digits disagree with ISO for some currencies.';
const MONEY_SELECTORS = [
  { selector: "CallExpression[callee.property.name='resolvedOptions']", message: MONEY_MESSAGE },
  { selector: "Property[key.name='style'][value.value='currency']", message: MONEY_MESSAGE },
];
const PEOPLE_SELECTORS = [
  {
    selector: `CallExpression:matches([callee.name=/^(db|trx|knex)$/], [callee.property.name=/^(from|into|table|join|leftJoin|innerJoin|rightJoin|batchInsert)$/]) > Literal[value=${PEOPLE_TABLE}]`,
    message: 'The people tables are read and written only in api/src/people/ and in an area’s own peopleReads.ts: ask the people module, or add the read to your area’s peopleReads.ts.',
  },
  {
    selector: `TemplateElement[value.raw=${PEOPLE_TABLE_IN_SQL}]`,
    message: 'The people tables are read and written only in api/src/people/ and in an area’s own peopleReads.ts: ask the people module, or add the read to your area’s peopleReads.ts.',
  },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'openapi.d.ts', 'test-results/**', 'data/**', 'web/dev-dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'error',
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The people module is the only writer of people data, and with each area's own peopleReads.ts
    // (what that area reads, built on people/reads/ for pay in force, status and reach) the only
    // reader: so "pay in force" and reach have one definition, and an area brings its reads in its
    // own folder. Amounts are written by the money module (MONEY_SELECTORS).
    files: ['api/src/**/*.ts'],
    ignores: ['api/src/people/**', 'api/src/**/peopleReads.ts', 'api/src/**/*.test.ts', 'api/src/**/test/**', ...MONEY_MODULES],
    rules: {
      'no-restricted-syntax': ['error', ...PEOPLE_SELECTORS, ...MONEY_SELECTORS],
    },
  },
  {
    // Money everywhere else: the people module, the web and the CLI (tests may ask Intl to compare).
    files: ['api/src/people/**/*.ts', 'api/src/**/peopleReads.ts', 'web/src/**/*.{ts,tsx}', 'cli/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', ...MONEY_MODULES],
    rules: { 'no-restricted-syntax': ['error', ...MONEY_SELECTORS] },
  },
  {
    // The money module itself keeps the people rule.
    files: ['api/src/money/**/*.ts'],
    ignores: ['api/src/**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', ...PEOPLE_SELECTORS] },
  },
);
