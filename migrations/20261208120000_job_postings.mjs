// @ts-check
// Job postings (api/src/postings/, module visualOfferLetter, permission postings): a company job posted
// in one or more places (or remote, with the regions it may be filled from), each place with the pay
// range proposed from the live band set (narrowed by the recruiter, or outside the band once approved).
// - job_postings.locations: JSON list, one entry per place with its zone, currency, the band it came
//   from and the posted range (minor units, annual).
// - band_set_id / band_set_version: the live set and its version the ranges came from.
// - stale_at / stale_reason: set when a later live band set no longer holds a posted range.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('job_postings', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('company_job_id', 64).notNullable();
    t.string('title', 200).notNullable();
    t.string('state', 32).notNullable();
    t.boolean('remote').notNullable().defaultTo(false);
    t.text('hiring_regions').notNullable(); // JSON list of { countryCode, stateCode }
    t.text('locations').notNullable(); // JSON list
    t.string('pay_basis', 16).notNullable(); // salary | hourly
    t.string('pay_period', 16).notNullable(); // year | hour
    t.integer('rounding').notNullable(); // major units the proposed ranges are rounded to
    t.text('benefits_description').notNullable();
    t.boolean('asks_pay_history').notNullable().defaultTo(false);
    t.integer('employer_headcount').nullable(); // null: the company's active employees
    t.string('band_set_id', 64).nullable();
    t.integer('band_set_version').nullable();
    t.text('approval').nullable(); // JSON: the route and who approved
    t.timestamp('stale_at', { useTz: true }).nullable();
    t.text('stale_reason').nullable();
    t.string('owner_user_id', 64).notNullable();
    t.integer('version').notNullable().defaultTo(1);
    t.string('created_by', 64).notNullable();
    t.string('updated_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id', 'state', 'created_at'], 'job_postings_company_state');
    t.index(['company_id', 'company_job_id'], 'job_postings_company_job');
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('job_postings');
}
