// @ts-check
// Offers (api/src/offers/, module visualOfferLetter):
// - offers: a candidate's package (JSON, minor units of the offer's currency) with up to three
//   alternatives, its place in the workflow (state, version), the approval route it waits for, and
//   what the candidate did (opened, viewed, accepted with the exact version, declined with a reason).
// - offer_letter_links: the candidate's letter links, stored only as the SHA-256 of their token; a
//   link belongs to one sending of one offer (`send_number`), so editing the offer ends it.
// - offer_approval_settings: one document per company, the approval rules by department or location.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('offers', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('candidate_id', 64).notNullable();
    t.string('candidate_email', 320).notNullable(); // as offered: the letter's addressee
    t.string('company_job_id', 64).nullable();
    t.string('job_family_id', 64).notNullable();
    t.string('level_id', 64).notNullable();
    t.string('track', 64).nullable();
    t.string('title', 200).notNullable();
    t.string('department', 200).nullable();
    t.string('location_id', 64).notNullable();
    t.string('country_code', 2).nullable();
    t.string('start_date', 10).notNullable();
    t.string('expires_on', 10).notNullable();
    t.string('currency', 3).notNullable();
    t.bigInteger('base_amount').notNullable(); // copied out of the package for lists and sorting
    t.text('package').notNullable(); // JSON
    t.text('alternatives').notNullable(); // JSON list
    t.text('benefits_summary').notNullable();
    t.text('welcome_message').notNullable();
    t.string('state', 32).notNullable();
    t.integer('version').notNullable().defaultTo(1);
    t.boolean('out_of_range').notNullable().defaultTo(false);
    t.text('approval').nullable(); // JSON: the route and its decisions
    t.integer('send_number').notNullable().defaultTo(0);
    t.timestamp('sent_at', { useTz: true }).nullable();
    t.timestamp('opened_at', { useTz: true }).nullable();
    t.timestamp('last_viewed_at', { useTz: true }).nullable();
    t.integer('view_count').notNullable().defaultTo(0);
    t.timestamp('accepted_at', { useTz: true }).nullable();
    t.text('acceptance').nullable(); // JSON: signature, time, version, package chosen
    t.timestamp('declined_at', { useTz: true }).nullable();
    t.text('decline_reason').nullable();
    t.string('hired_employee_id', 64).nullable();
    t.string('created_by', 64).notNullable();
    t.string('updated_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id', 'state', 'created_at'], 'offers_company_state');
    t.index(['company_id', 'candidate_email'], 'offers_company_email');
  });

  await knex.schema.createTable('offer_letter_links', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('offer_id', 64).notNullable().references('offers.id').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique();
    t.integer('send_number').notNullable();
    t.string('purpose', 32).notNullable(); // 'letter': the only thing a token opens
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['company_id', 'offer_id'], 'offer_letter_links_offer');
  });

  await knex.schema.createTable('offer_approval_settings', (t) => {
    t.string('company_id', 64).primary().references('companies.id').onDelete('CASCADE');
    t.text('rules').notNullable(); // JSON list
    t.integer('version').notNullable().defaultTo(1);
    t.string('updated_by', 64).nullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('offer_approval_settings');
  await knex.schema.dropTableIfExists('offer_letter_links');
  await knex.schema.dropTableIfExists('offers');
}
