// @ts-check
// Proof of control of an e-mail domain (api/src/companies/domains/): a company claims a domain, and
// it counts (routes enterprise sign-in, makes a market participant verifiable) only once proven.
// At most one company holds a domain proven: a partial unique index says so on both engines.
// The SSO routing table `sso_domains` becomes a column of the claim: a connection routes the
// company's proven domains linked to it. Domains registered before had no proof: they are moved
// over as pending claims and route nobody until proven.
//
// Market participants (api/src/market/participation/verification.ts): a company's request to
// contribute, approved or refused by an internal admin, and which companies each release took.
import { randomBytes, randomUUID } from 'node:crypto';

const token = () => randomBytes(24).toString('base64url');

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('company_domains', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('domain', 253).notNullable();
    t.string('status', 16).notNullable(); // pending | proven | revoked
    t.string('token', 64).notNullable(); // the TXT record's value: paybench-verification=<token>
    t.string('proof', 16).nullable(); // dns | admin_email | internal | seeded
    t.timestamp('proven_at', { useTz: true }).nullable();
    t.string('claimed_by', 64).nullable(); // the user who claimed it (no foreign key: kept when they leave)
    t.string('sso_connection_id', 64).nullable().references('sso_connections.id').onDelete('SET NULL');
    t.timestamp('checked_at', { useTz: true }).nullable();
    t.string('last_check', 500).nullable(); // what the last check found, in words
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['company_id', 'domain']);
    t.index(['domain']);
    t.index(['sso_connection_id']);
  });
  await knex.raw("create unique index company_domains_one_proven on company_domains (domain) where status = 'proven'");

  const now = new Date().toISOString();
  const registered = await knex('sso_domains').select('domain', 'company_id', 'connection_id', 'created_at');
  for (const row of registered) {
    await knex('company_domains').insert({
      id: randomUUID(),
      company_id: row.company_id,
      domain: row.domain,
      status: 'pending',
      token: token(),
      sso_connection_id: row.connection_id,
      created_at: row.created_at,
      updated_at: now,
    });
  }
  await knex.schema.dropTable('sso_domains');

  await knex.schema.createTable('market_participant_reviews', (t) => {
    t.string('company_id', 64).primary().references('companies.id').onDelete('CASCADE');
    t.string('status', 16).notNullable(); // pending | approved | refused
    t.string('requested_by', 64).nullable();
    t.timestamp('requested_at', { useTz: true }).notNullable();
    t.integer('headcount_offered').notNullable().defaultTo(0);
    t.string('decided_by', 64).nullable();
    t.timestamp('decided_at', { useTz: true }).nullable();
    t.string('note', 1000).nullable();
    t.boolean('seeded').notNullable().defaultTo(false); // set up by the demo seed, not by a person
  });

  await knex.schema.createTable('market_release_participants', (t) => {
    t.string('release_id', 64).notNullable().references('market_releases.id').onDelete('CASCADE');
    t.string('company_id', 64).notNullable(); // no foreign key: a release keeps who it took
    t.string('company_name', 200).notNullable();
    t.primary(['release_id', 'company_id']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('market_release_participants');
  await knex.schema.dropTableIfExists('market_participant_reviews');
  await knex.schema.createTable('sso_domains', (t) => {
    t.string('domain', 253).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('connection_id', 64).notNullable().references('sso_connections.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['company_id']);
    t.index(['connection_id']);
  });
  // Only proven domains go back: a pending claim never routed anyone.
  const proven = await knex('company_domains').where({ status: 'proven' }).whereNotNull('sso_connection_id');
  for (const row of proven) await knex('sso_domains').insert({ domain: row.domain, company_id: row.company_id, connection_id: row.sso_connection_id, created_at: row.created_at });
  await knex.schema.dropTableIfExists('company_domains');
}
