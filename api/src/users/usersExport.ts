import { csvFile } from '../downloads/csv.js';
import { saveDownload } from '../downloads/service.js';
import { jobKind } from '../jobs/kind.js';
import { rolesOfUsers } from '../access/store.js';
import { customerUsersOf, emailsOfUsers } from '../access/usersStore.js';

export const USERS_EXPORT = 'usersExport';
export const USERS_CSV_COLUMNS = ['email', 'firstName', 'lastName', 'roles', 'manager', 'status'] as const;

const PAGE = 500;

/** Writes every user of the company and their role keys as CSV, page by page, reporting progress. */
export const usersExportJob = jobKind<Record<string, never>>({ type: USERS_EXPORT, title: 'Users export' }, ({ downloads: storage }) => async ({ job, db, progress }) => {
    const scope = { companyId: job.companyId };
    const total = Number((await customerUsersOf(db, scope).andWhere('users.is_candidate', false).count({ count: '*' }).first())?.count ?? 0);
    async function* rows() {
      let done = 0;
      let after = '';
      for (;;) {
        const page = await customerUsersOf(db, scope).andWhere('users.is_candidate', false).andWhere('users.email', '>', after).orderBy('users.email').limit(PAGE);
        if (!page.length) return;
        const roles = await rolesOfUsers(db, scope, page.map((user) => user.id));
        const managers = await emailsOfUsers(db, scope, page.flatMap((user) => (user.manager_user_id ? [user.manager_user_id] : [])));
        for (const user of page) {
          const keys = (roles.get(user.id) ?? []).map((role) => role.key).sort();
          const manager = user.manager_user_id ? (managers.get(user.manager_user_id) ?? '') : '';
          yield [user.email, user.first_name, user.last_name, keys.join(';'), manager, user.status];
        }
        done += page.length;
        after = page.at(-1)?.email ?? after;
        await progress(Math.min(95, Math.round((done / Math.max(total, 1)) * 95)), `${done} of ${total} users written`);
      }
    }
    const csv = csvFile(USERS_CSV_COLUMNS, rows());
    const download = await saveDownload(db, storage, {
      companyId: job.companyId,
      ownerUserId: job.ownerUserId,
      jobId: job.id,
      kind: USERS_EXPORT,
      filename: `users-${new Date().toISOString().slice(0, 10)}.csv`,
      contentType: 'text/csv; charset=utf-8',
      permission: 'users',
      content: csv,
    });
    return { downloadId: download.id, users: total };
  });
