// @ts-check
// People data: employees (with the org tree), their dated compensation history and equity grants,
// candidates, and company exchange-rate overrides. Bands, planning, total rewards and offers build on these.
// Amounts are integers in the minor units of `currency`; dates without a time are 'YYYY-MM-DD' strings.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('employees', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('employee_number', 128).notNullable(); // the company's own employee id (HRIS key)
    t.string('user_id', 64).nullable().references('users.id').onDelete('SET NULL'); // the person's sign-in, if any
    t.string('email', 320).nullable(); // lower-cased
    t.string('first_name').notNullable().defaultTo('');
    t.string('last_name').notNullable().defaultTo('');
    t.string('title').notNullable().defaultTo('');
    t.string('company_job_id', 64).nullable(); // the company's job architecture (bands)
    t.string('job_family_id', 64).nullable(); // market catalog family id
    t.string('level_id', 64).nullable(); // market catalog level id (s1…e9)
    t.string('track', 16).nullable(); // tr_s | tr_p | tr_m | tr_vp | tr_c
    t.string('manager_id', 64).nullable(); // employees.id of the manager; the org tree
    t.string('department').nullable();
    t.string('country_code', 2).nullable(); // ISO 3166 alpha-2
    t.string('location_id', 64).nullable(); // market catalog location (metro) id
    t.string('currency', 3).notNullable(); // local pay currency, ISO 4217
    t.string('start_date', 10).nullable();
    t.string('employment_type', 16).notNullable().defaultTo('full_time'); // full_time | part_time | contractor | intern
    t.string('status', 16).notNullable().defaultTo('active'); // active | terminated
    t.string('termination_date', 10).nullable();
    t.string('performance_rating', 64).nullable();
    // Pay-equity fields (gender, ethnicity, birthYear, …) as JSON; readable only with the demographics permission.
    t.text('demographics').notNullable().defaultTo('{}');
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['company_id', 'employee_number']);
    t.index(['company_id', 'manager_id']);
    t.index(['company_id', 'email']);
    t.index(['company_id', 'user_id']);
  });

  // Dated history: the value in force on a day is the latest row with effective_date <= that day.
  await knex.schema.createTable('compensation_records', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('employee_id', 64).notNullable().references('employees.id').onDelete('CASCADE');
    t.string('type', 32).notNullable(); // base_salary | bonus_target | variable_pay | commission | benefits
    t.bigInteger('amount').notNullable(); // annual amount, minor units of currency
    t.string('currency', 3).notNullable();
    t.integer('percent_of_base_bp').nullable(); // a target stated as a percentage of base, in basis points
    t.string('effective_date', 10).notNullable();
    t.string('reason', 32).nullable(); // hire | merit | promotion | adjustment | import
    t.string('source', 32).notNullable().defaultTo('manual'); // manual | hris_import | integration
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.unique(['employee_id', 'type', 'effective_date']);
    t.index(['company_id', 'type', 'effective_date']);
  });

  await knex.schema.createTable('equity_grants', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('employee_id', 64).notNullable().references('employees.id').onDelete('CASCADE');
    t.string('grant_number', 128).notNullable(); // the cap table's grant id (import key)
    t.string('grant_type', 16).notNullable(); // option | rsu | rsa | common_stock
    t.string('reason', 16).notNullable().defaultTo('new_hire'); // new_hire | refresher | promotion | performance | other
    t.bigInteger('shares').notNullable();
    t.bigInteger('exercise_price').nullable(); // per share, minor units of currency; options only
    t.string('currency', 3).notNullable();
    t.string('grant_date', 10).notNullable();
    t.string('vesting_start_date', 10).notNullable();
    t.integer('vesting_months').notNullable().defaultTo(48);
    t.integer('cliff_months').notNullable().defaultTo(12);
    t.string('vesting_frequency', 16).notNullable().defaultTo('monthly'); // monthly | quarterly | annually
    t.string('source', 32).notNullable().defaultTo('manual'); // manual | cap_table_import | integration
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['company_id', 'grant_number']);
    t.index(['company_id', 'employee_id']);
  });

  await knex.schema.createTable('candidates', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('email', 320).notNullable(); // lower-cased; candidates find their offers by it
    t.string('first_name').notNullable().defaultTo('');
    t.string('last_name').notNullable().defaultTo('');
    t.string('title').notNullable().defaultTo(''); // the role they are considered for
    t.string('job_family_id', 64).nullable();
    t.string('level_id', 64).nullable();
    t.string('location_id', 64).nullable();
    t.string('country_code', 2).nullable();
    t.string('currency', 3).notNullable();
    t.string('status', 16).notNullable().defaultTo('active'); // active | hired | withdrawn | archived
    t.string('source').nullable(); // referral, agency, inbound, …
    t.string('hired_employee_id', 64).nullable().references('employees.id').onDelete('SET NULL');
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['company_id', 'email']);
  });

  // A company's own rate for a pair from a date on, preferred over the reference (ECB) rates.
  await knex.schema.createTable('company_exchange_rates', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('base_currency', 3).notNullable();
    t.string('quote_currency', 3).notNullable();
    t.string('rate', 40).notNullable(); // decimal string: 1 base = rate quote (kept exact)
    t.string('effective_date', 10).notNullable();
    t.text('note').notNullable().defaultTo('');
    t.string('created_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.unique(['company_id', 'base_currency', 'quote_currency', 'effective_date']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  for (const table of ['company_exchange_rates', 'candidates', 'equity_grants', 'compensation_records', 'employees']) {
    await knex.schema.dropTableIfExists(table);
  }
}
