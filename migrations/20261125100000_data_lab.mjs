// @ts-check
// The data lab (api/src/dataLab/):
// - data_lab_subscriptions: which data-lab features a company has (internal admins set them), and
//   when its insights were last computed.
// - data_lab_insights: the insights last computed for a company, replaced as a whole on each run;
//   `insight_key` names the finding (kind and subject) so it survives a recomputation.
// - data_lab_insight_states: a person's dismissal or snooze of an insight, by its key.
// - data_lab_bookmarks: saved insights, explorer queries and team-analytics views; shared ones
//   are visible to the company's data-lab users.
// Existing companies' built-in roles gain the `dataLab` permission as new companies get it.

const GRANTS = { admin: 'edit', compensation_planner: 'edit', analyst: 'view' };

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('data_lab_subscriptions', (t) => {
    t.string('company_id', 64).primary().references('companies.id').onDelete('CASCADE');
    t.boolean('insights').notNullable().defaultTo(false);
    t.boolean('agent').notNullable().defaultTo(false);
    t.boolean('pulse_surveys').notNullable().defaultTo(false);
    t.string('updated_by', 64).nullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });

  await knex.schema.createTable('data_lab_insight_runs', (t) => {
    t.string('company_id', 64).primary().references('companies.id').onDelete('CASCADE');
    t.string('reason', 64).notNullable(); // the event or schedule that asked for it
    t.timestamp('computed_at', { useTz: true }).notNullable();
  });

  await knex.schema.createTable('data_lab_insights', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('insight_key', 200).notNullable();
    t.string('kind', 32).notNullable();
    t.string('severity', 16).notNullable(); // high | medium | low
    t.string('title', 300).notNullable();
    t.double('metric_value').notNullable();
    t.string('metric_unit', 16).notNullable(); // people | percent | ratio | count
    t.text('method').notNullable();
    t.string('link', 500).notNullable();
    t.text('subjects').notNullable(); // JSON: [{ employeeId, detail }]
    t.text('details').notNullable(); // JSON: figures behind the number (cells, groups)
    t.boolean('needs_pay').notNullable(); // naming its people needs employeeCompensation reach
    t.boolean('needs_demographics').notNullable();
    t.timestamp('computed_at', { useTz: true }).notNullable();
    t.unique(['company_id', 'insight_key']);
  });

  await knex.schema.createTable('data_lab_insight_states', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('user_id', 64).notNullable().references('users.id').onDelete('CASCADE');
    t.string('insight_key', 200).notNullable();
    t.string('state', 16).notNullable(); // dismissed | snoozed
    t.timestamp('snoozed_until', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.unique(['company_id', 'user_id', 'insight_key']);
  });

  await knex.schema.createTable('data_lab_bookmarks', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('owner_user_id', 64).notNullable().references('users.id').onDelete('CASCADE');
    t.string('kind', 32).notNullable(); // insight | explorerQuery | teamAnalytics
    t.string('name', 200).notNullable();
    t.string('target', 2000).notNullable(); // the insight's key, or the screen's address with its query
    t.boolean('shared').notNullable().defaultTo(false);
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id', 'owner_user_id']);
    t.index(['company_id', 'shared']);
  });

  const roles = await knex('roles').where({ is_builtin: true }).whereIn('key', Object.keys(GRANTS)).select('id', 'key', 'permissions');
  for (const role of roles) {
    const permissions = JSON.parse(role.permissions);
    if (permissions.dataLab) continue;
    permissions.dataLab = [{ authority: GRANTS[/** @type {keyof typeof GRANTS} */ (role.key)], scope: 'all' }];
    await knex('roles').where({ id: role.id }).update({ permissions: JSON.stringify(permissions) });
  }
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('data_lab_bookmarks');
  await knex.schema.dropTableIfExists('data_lab_insight_states');
  await knex.schema.dropTableIfExists('data_lab_insights');
  await knex.schema.dropTableIfExists('data_lab_insight_runs');
  await knex.schema.dropTableIfExists('data_lab_subscriptions');
}
