// @ts-check
// Proof of a domain by link (api/src/companies/domains/proofLinks.ts): a company admin asks for a
// link sent to an address at a domain its company claims; opening it there proves the domain. The
// link's secret is stored only as its SHA-256; a link works once, for a day, and only for the claim
// it was sent for (a newer link, a withdrawn or re-made claim ends it).

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('company_domain_proof_links', (t) => {
    t.string('id', 64).primary();
    t.string('company_domain_id', 64).notNullable().references('company_domains.id').onDelete('CASCADE');
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('domain', 253).notNullable();
    // The claim's TXT token when the link was sent: a claim revoked and claimed again gets a new one.
    t.string('claim_token', 64).notNullable();
    t.string('email', 320).notNullable();
    t.string('token_hash', 64).notNullable().unique();
    t.string('requested_by', 64).nullable(); // no foreign key: kept when they leave
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.index(['company_id', 'created_at']);
    t.index(['company_domain_id']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  // Domains proven by a link stay proven (proof `email_link`): they were proven.
  await knex.schema.dropTableIfExists('company_domain_proof_links');
}
