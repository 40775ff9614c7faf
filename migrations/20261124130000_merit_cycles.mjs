// @ts-check
// Merit cycles (api/src/meritCycles/, module compplanning):
// - merit_cycles: draft | active | closed | cancelled (workflow `meritCycle`, history in workflow_history);
//   settings and configuration as JSON (performance scale, eligibility rules, recommendation logic,
//   budget, worksheet columns per role, planning windows); the reference rates used (named), fixed at
//   launch; versioned.
// - merit_cycle_worksheets: one per planner (a manager of people in the cycle) plus one for people
//   without a manager; the org tree of worksheets (parent), the review state (workflow `worksheet`),
//   the approval chain as submitted, a hand-set allocation, the sums of its rows (kept with each change); versioned.
// - merit_cycle_employees: one row per active employee at launch: a snapshot of who they were (name,
//   job, manager, pay in force, band) and what is planned for them (merit, promotion, lump sum,
//   equity refresh in minor units of their currency); versioned per row.
// - merit_cycle_row_changes: every change to a row (who, when, fields from → to, the version it made).
// - merit_cycle_comments, merit_cycle_exclusions (by hand, with a reason), merit_cycle_approval_chains
//   (ordered reviewers per org branch; versioned), merit_cycle_viewers (who has a cycle open, for the
//   live updates).

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  await knex.schema.createTable('merit_cycles', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.string('state', 16).notNullable();
    t.string('effective_date', 10).notNullable();
    t.string('period_start', 10).notNullable();
    t.string('period_end', 10).notNullable();
    t.string('currency', 3).notNullable();
    t.text('components').notNullable(); // JSON: ["merit", "promotion", …]
    t.string('band_set_id', 64).nullable().references('band_sets.id').onDelete('SET NULL');
    t.string('planner_mode', 16).notNullable();
    t.text('performance').notNullable(); // JSON: { ratingField, scale }
    t.text('eligibility').notNullable(); // JSON: the root condition
    t.text('recommendation').notNullable(); // JSON
    t.text('budget').notNullable(); // JSON
    t.text('columns').notNullable(); // JSON: { roles: [...] }
    t.text('planning_windows').notNullable().defaultTo('[]'); // JSON
    t.string('rates_as_of', 10).nullable();
    t.text('exchange_rates').notNullable().defaultTo('{"rates":[],"conversions":{}}'); // JSON: named rates, exact conversions
    t.timestamp('launched_at', { useTz: true }).nullable();
    t.string('launched_by', 64).nullable();
    t.timestamp('closed_at', { useTz: true }).nullable();
    t.integer('pay_records_written').notNullable().defaultTo(0);
    t.integer('version').notNullable().defaultTo(1);
    t.string('created_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id', 'created_at']);
  });

  await knex.schema.createTable('merit_cycle_worksheets', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('cycle_id', 64).notNullable().references('merit_cycles.id').onDelete('CASCADE');
    t.string('planner_employee_id', 64).nullable();
    t.string('planner_user_id', 64).nullable();
    t.string('planner_name', 400).nullable();
    t.string('parent_worksheet_id', 64).nullable();
    t.integer('depth').notNullable().defaultTo(0);
    t.string('state', 16).notNullable();
    t.text('reviewers').notNullable().defaultTo('[]'); // JSON: user ids in order, fixed at submission
    t.integer('review_step').nullable(); // 1-based, while in review
    t.string('pulled_up_into', 64).nullable();
    t.bigInteger('allocated_override').nullable(); // minor units of the cycle currency
    // The sums of its rows, kept with every change to a row (so a budget roll-up reads worksheets, not rows).
    t.integer('sum_employees').notNullable().defaultTo(0);
    t.integer('sum_eligible').notNullable().defaultTo(0);
    t.integer('sum_reviewed').notNullable().defaultTo(0);
    t.integer('sum_changed').notNullable().defaultTo(0);
    t.integer('sum_flagged_errors').notNullable().defaultTo(0);
    t.bigInteger('sum_eligible_payroll').notNullable().defaultTo(0); // cycle currency, like the three below
    t.bigInteger('sum_budget').notNullable().defaultTo(0);
    t.bigInteger('sum_recommended').notNullable().defaultTo(0);
    t.bigInteger('sum_used').notNullable().defaultTo(0);
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id', 'cycle_id']);
    t.unique(['cycle_id', 'planner_employee_id']);
  });

  await knex.schema.createTable('merit_cycle_employees', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('cycle_id', 64).notNullable().references('merit_cycles.id').onDelete('CASCADE');
    t.string('employee_id', 64).notNullable();
    t.string('worksheet_id', 64).nullable();
    // Who they were at launch.
    t.string('employee_number', 128).notNullable();
    t.string('first_name').notNullable();
    t.string('last_name').notNullable();
    t.string('title').notNullable();
    t.string('department').nullable();
    t.string('job_family_id', 64).nullable();
    t.string('level_id', 64).nullable();
    t.string('manager_id', 64).nullable();
    t.string('user_id', 64).nullable();
    t.string('rating', 64).nullable();
    t.string('currency', 3).notNullable();
    t.bigInteger('current_base').nullable();
    t.bigInteger('base_in_cycle').nullable(); // cycle currency
    // Eligibility and proration.
    t.string('eligibility', 16).notNullable();
    t.text('reasons').notNullable().defaultTo('[]');
    t.text('excluded_reason').nullable();
    t.integer('days_employed').notNullable();
    t.integer('days_in_period').notNullable();
    // Band (employee's currency) and recommendation.
    t.string('band_id', 64).nullable();
    t.bigInteger('band_min').nullable();
    t.bigInteger('band_mid').nullable();
    t.bigInteger('band_max').nullable();
    t.integer('rec_min_bp').nullable();
    t.integer('rec_target_bp').nullable();
    t.integer('rec_max_bp').nullable();
    t.bigInteger('rec_target_amount').nullable();
    t.bigInteger('rec_target_in_cycle').notNullable().defaultTo(0);
    t.bigInteger('budget_in_cycle').notNullable().defaultTo(0);
    // What is planned (employee's currency), and what it spends of the budget (cycle currency).
    t.bigInteger('merit_amount').notNullable().defaultTo(0);
    t.bigInteger('promotion_amount').nullable();
    t.bigInteger('lump_sum_amount').nullable();
    t.bigInteger('equity_refresh_amount').nullable();
    t.bigInteger('spend_in_cycle').notNullable().defaultTo(0);
    t.text('comment').nullable();
    t.text('flags').notNullable().defaultTo('[]');
    t.boolean('reviewed').notNullable().defaultTo(false);
    t.boolean('edited').notNullable().defaultTo(false);
    t.integer('version').notNullable().defaultTo(1);
    t.string('updated_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['cycle_id', 'employee_id']);
    t.index(['cycle_id', 'worksheet_id']);
  });

  await knex.schema.createTable('merit_cycle_row_changes', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('cycle_id', 64).notNullable().references('merit_cycles.id').onDelete('CASCADE');
    t.string('employee_id', 64).notNullable();
    t.string('worksheet_id', 64).nullable();
    t.integer('row_version').notNullable();
    t.string('actor_user_id', 64).nullable();
    t.text('changes').notNullable(); // JSON: [{ field, from, to }]
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['cycle_id', 'employee_id', 'row_version']);
  });

  await knex.schema.createTable('merit_cycle_comments', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('cycle_id', 64).notNullable().references('merit_cycles.id').onDelete('CASCADE');
    t.string('worksheet_id', 64).nullable();
    t.string('employee_id', 64).nullable();
    t.string('author_user_id', 64).nullable();
    t.text('body').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['cycle_id', 'worksheet_id']);
    t.index(['cycle_id', 'employee_id']);
  });

  await knex.schema.createTable('merit_cycle_exclusions', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('cycle_id', 64).notNullable().references('merit_cycles.id').onDelete('CASCADE');
    t.string('employee_id', 64).notNullable();
    t.text('reason').notNullable();
    t.string('excluded_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.unique(['cycle_id', 'employee_id']);
  });

  await knex.schema.createTable('merit_cycle_approval_chains', (t) => {
    t.string('id', 64).primary();
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('cycle_id', 64).notNullable().references('merit_cycles.id').onDelete('CASCADE');
    t.string('branch_employee_id', 64).nullable(); // null: the company-wide default chain
    t.text('reviewers').notNullable(); // JSON: user ids in order
    t.integer('version').notNullable().defaultTo(1);
    t.string('updated_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['company_id', 'cycle_id']);
  });

  await knex.schema.createTable('merit_cycle_viewers', (t) => {
    t.string('company_id', 64).notNullable().references('companies.id').onDelete('CASCADE');
    t.string('cycle_id', 64).notNullable().references('merit_cycles.id').onDelete('CASCADE');
    t.string('user_id', 64).notNullable();
    t.timestamp('seen_at', { useTz: true }).notNullable();
    t.primary(['cycle_id', 'user_id']);
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  for (const table of ['merit_cycle_viewers', 'merit_cycle_approval_chains', 'merit_cycle_exclusions', 'merit_cycle_comments', 'merit_cycle_row_changes', 'merit_cycle_employees', 'merit_cycle_worksheets', 'merit_cycles']) {
    await knex.schema.dropTableIfExists(table);
  }
}
