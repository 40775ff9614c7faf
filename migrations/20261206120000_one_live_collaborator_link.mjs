// @ts-check
// One live link per shared slice and invited address (api/src/market/shares/collaborators.ts): the
// database refuses a second unrevoked invitation, so parallel re-invites cannot leave several live
// links. Earlier duplicates are revoked first, keeping the newest invitation of each address.

/** @param {import('knex').Knex} knex */
export async function up(knex) {
  /** @type {{ id: string; slice_id: string; email: string; invited_at: string | Date }[]} */
  const live = await knex('market_slice_collaborators').whereNull('revoked_at').select('id', 'slice_id', 'email', 'invited_at').orderBy('invited_at', 'desc').orderBy('id', 'desc');
  const kept = new Set();
  const older = [];
  for (const row of live) {
    const key = `${row.slice_id} ${row.email}`;
    if (kept.has(key)) older.push(row);
    else kept.add(key);
  }
  for (const row of older) await knex('market_slice_collaborators').where({ id: row.id }).update({ revoked_at: row.invited_at });
  await knex.raw('create unique index market_slice_collaborators_one_live on market_slice_collaborators (slice_id, email) where revoked_at is null');
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.raw('drop index market_slice_collaborators_one_live');
}
