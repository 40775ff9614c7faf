import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** A knex table argument naming a people table ('employees', 'compensation_records as c', …). */
const PEOPLE_TABLE = '/^(employees|compensation_records|equity_grants)( as \\w+)?$/';
/** Raw SQL naming one after from, join, into or update. */
const PEOPLE_TABLE_IN_SQL = '/\\b(from|join|into|update)\\s+(employees|compensation_records|equity_grants)\\b/i';

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
    // The people module is the only reader and writer of people data: everyone else asks it
    // (api/src/people/reads/, importRows.ts), so "pay in force" and reach have one definition.
    files: ['api/src/**/*.ts'],
    ignores: ['api/src/people/**', 'api/src/**/*.test.ts', 'api/src/**/test/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `CallExpression:matches([callee.name=/^(db|trx|knex)$/], [callee.property.name=/^(from|into|table|join|leftJoin|innerJoin|rightJoin|batchInsert)$/]) > Literal[value=${PEOPLE_TABLE}]`,
          message: 'The people tables are read and written only in api/src/people/ (reads/, importRows.ts, store.ts): ask the people module.',
        },
        {
          selector: `TemplateElement[value.raw=${PEOPLE_TABLE_IN_SQL}]`,
          message: 'The people tables are read and written only in api/src/people/ (reads/, importRows.ts, store.ts): ask the people module.',
        },
      ],
    },
  },
);
