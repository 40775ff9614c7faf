// @ts-check
// Hires made from accepted offers before future hires existed were active at once, even with a
// start date ahead. Those not started yet become `starting`, and each gets the `hireStart` job
// (api/src/people/hireStart.ts) due at the first moment of their start date (UTC), owned by the
// offer's author, as acceptance queues it now.
import { v7 } from 'uuid';

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  const today = new Date().toISOString().slice(0, 10);
  /** @type {{ id: string; company_id: string; start_date: string; owner: string }[]} */
  const early = await knex('employees as e')
    .join('offers as o', (join) => join.on('o.hired_employee_id', '=', 'e.id').andOn('o.company_id', '=', 'e.company_id'))
    .where('e.status', 'active')
    .andWhere('e.start_date', '>', today)
    .andWhere('e.employee_number', 'like', 'offer-%')
    .select('e.id', 'e.company_id', 'e.start_date', 'o.created_by as owner');
  const now = new Date().toISOString();
  for (const hire of early) {
    await knex('employees').where({ id: hire.id }).update({ status: 'starting', updated_at: now });
    await knex('jobs').insert({
      id: v7(),
      company_id: hire.company_id,
      owner_user_id: hire.owner,
      type: 'hireStart',
      status: 'queued',
      progress: 0,
      message: `Starts the hire on ${hire.start_date}.`,
      input: JSON.stringify({ employeeId: hire.id }),
      result: null,
      attempts: 0,
      max_attempts: 3,
      run_after: `${hire.start_date}T00:00:00.000Z`,
      locked_by: null,
      heartbeat_at: null,
      cancel_requested: false,
      origin_socket_id: null,
      created_at: now,
      updated_at: now,
      finished_at: null,
    });
  }
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex('jobs').where({ type: 'hireStart', status: 'queued' }).delete();
  await knex('employees').where({ status: 'starting' }).update({ status: 'active' });
}
