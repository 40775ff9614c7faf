// @ts-check
// Pay transparency (api/src/payTransparency): employees' requests for their pay information
// (Article 7 of the EU Pay Transparency Directive), the company's pay-setting criteria and
// publication minimum, and the yearly notice of the right, one per company and year.
// Built-in Admin roles of existing companies are given the new `payEquity` permission (edit), as
// new companies' Admin role has every permission; a demo company gets the module switched on, as a
// new demo does (every built module is on in the demo).

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('pay_information_requests', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('employee_id', 64).notNullable().references('employees.id').onDelete('CASCADE');
    t.string('requester_user_id', 64).notNullable().references('users.id').onDelete('CASCADE');
    t.string('state', 16).notNullable(); // review | delivered (workflow `payInformationRequest`)
    t.text('message').nullable(); // what the employee wrote
    t.string('filed_on', 10).notNullable();
    t.string('due_on', 10).notNullable(); // two months after filed_on
    t.string('reminder_on', 10).notNullable(); // two weeks before due_on
    t.text('answer').notNullable(); // JSON: the prepared answer (PayInformationAnswer)
    t.text('note').nullable(); // HR's note delivered with the answer
    t.timestamp('reminded_at', { useTz: true }).nullable();
    t.timestamp('delivered_at', { useTz: true }).nullable();
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id', 'state', 'due_on']);
    t.index(['company_id', 'requester_user_id']);
  });

  await knex.schema.createTable('pay_transparency_settings', (t) => {
    t.string('company_id', 64).primary().references('companies.id').onDelete('CASCADE');
    t.text('criteria').notNullable();
    t.integer('publication_minimum').notNullable();
    t.integer('weekly_hours_tenths').notNullable(); // 40 hours = 400
    t.integer('part_time_fte_bp').notNullable(); // 0.5 FTE = 5000
    t.string('updated_by', 64).nullable();
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });

  await knex.schema.createTable('pay_transparency_notices', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('year').notNullable();
    t.string('trigger', 16).notNullable(); // schedule | button
    t.string('sent_by', 64).nullable();
    t.integer('recipients').notNullable();
    t.timestamp('sent_at', { useTz: true }).notNullable();
    t.unique(['company_id', 'year']);
  });

  const admins = await knex('roles').where({ is_builtin: true, key: 'admin' }).select('id', 'permissions');
  for (const role of admins) {
    const permissions = JSON.parse(role.permissions);
    if (permissions.payEquity) continue;
    permissions.payEquity = [{ authority: 'edit', scope: 'all' }];
    await knex('roles').where({ id: role.id }).update({ permissions: JSON.stringify(permissions) });
  }

  const demos = await knex('companies').where({ is_demo: true }).select('id');
  for (const demo of demos) {
    const set = await knex('company_flags').where({ company_id: demo.id, flag: 'pay_equity' }).first();
    if (!set) await knex('company_flags').insert({ company_id: demo.id, flag: 'pay_equity', enabled: true, updated_by: 'demo', updated_at: new Date().toISOString() });
  }
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('pay_transparency_notices');
  await knex.schema.dropTableIfExists('pay_transparency_settings');
  await knex.schema.dropTableIfExists('pay_information_requests');
}
