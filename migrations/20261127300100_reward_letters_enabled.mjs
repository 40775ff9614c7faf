// @ts-check
// Reward letters enabled per employee (api/src/rewardLetters/): a closed cycle has a letter row for every
// eligible employee with a base, enabled by default only where the cycle changed their pay (a new base,
// a one-time bonus or an equity refresh). A planner switches a letter on or off before it is released, at
// the letter's version (If-Match). A disabled letter is not rendered (no document version), released,
// reminded or exported.
// - reward_letters.enabled: whether the letter goes out; every letter so far was one with a change.
// - reward_letters.changes_pay: whether the cycle changed the employee's pay (what `enabled` starts as).
// - reward_letters.version: the letter's own version, for switching it.
// - reward_letters.document_version_id: null while the letter is disabled.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.alterTable('reward_letters', (t) => {
    t.boolean('enabled').notNullable().defaultTo(true);
    t.boolean('changes_pay').notNullable().defaultTo(true);
    t.integer('version').notNullable().defaultTo(1);
  });
  await knex.schema.alterTable('reward_letters', (t) => {
    t.string('document_version_id', 64).nullable().alter();
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex('reward_letters').whereNull('document_version_id').delete();
  await knex.schema.alterTable('reward_letters', (t) => {
    t.string('document_version_id', 64).notNullable().alter();
  });
  await knex.schema.alterTable('reward_letters', (t) => {
    t.dropColumn('version');
    t.dropColumn('changes_pay');
    t.dropColumn('enabled');
  });
}
