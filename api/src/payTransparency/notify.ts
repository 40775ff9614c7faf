import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { hasPermission, resolvePermissions } from '../access/permissions.js';
import { parsePermissions, rolesOfUsers } from '../access/store.js';
import { customerUsersOf } from '../access/usersStore.js';
import type { Mailer } from '../notifications/mailer.js';

/** What telling people needs: the database, the mailer and the app's address for links. */
export interface NotifyPorts {
  db: Knex;
  mailer: Mailer;
  publicUrl: string;
}

/** The people who answer requests: active users of the company whose roles grant `payEquity` edit. */
export async function answeringUsers(db: Knex, scope: CompanyScope): Promise<{ id: string; email: string }[]> {
  const users = (await customerUsersOf(db, scope).andWhere('users.status', 'active').andWhere('users.is_candidate', false)) as { id: string; email: string }[];
  const roles = await rolesOfUsers(
    db,
    scope,
    users.map((user) => user.id),
  );
  return users.filter((user) => hasPermission(resolvePermissions((roles.get(user.id) ?? []).map(parsePermissions)).resolved, 'payEquity', 'edit', undefined));
}

export function noticeText(year: number, link: string): { subject: string; text: string } {
  return {
    subject: `Paybench: your right to information about pay (${year})`,
    text:
      'Under the EU Pay Transparency Directive you may ask, at any time, for your own pay level and for the average pay levels, by sex, of the people who do the same work as you or work of equal value, annually and hourly. ' +
      'You may also read the criteria the company uses to set pay and pay progression.\n\n' +
      `Ask in the app — it takes one tap, also on your phone: ${link}\n\n` +
      'The answer comes within two months. You may share what you are told about your own pay; nobody may stop you.',
  };
}

export async function mailDelivered(ports: NotifyPorts, email: string | undefined, companyId: string): Promise<void> {
  if (!email) return;
  await ports.mailer.send({
    companyId,
    to: email,
    subject: 'Paybench: the answer to your request for pay information',
    text: `The answer to your request for pay information is ready: your pay level, the average pay levels of women and men in your category, and how pay is set.\n\nRead it here: ${ports.publicUrl}/pay-information`,
  });
}

export async function mailReminder(ports: NotifyPorts, to: readonly string[], options: { companyId: string; employeeName: string; dueOn: string; requestId: string }): Promise<void> {
  for (const address of to) {
    await ports.mailer.send({
      companyId: options.companyId,
      to: address,
      subject: `Paybench: a request for pay information is due on ${options.dueOn}`,
      text: `${options.employeeName} asked for their pay information. The answer must reach them by ${options.dueOn} (two months after the request). It is waiting for review.\n\nReview and approve it: ${ports.publicUrl}/pay-transparency/requests/${options.requestId}`,
    });
  }
}

export async function mailFiled(ports: Pick<NotifyPorts, 'mailer' | 'publicUrl'>, to: readonly string[], options: { companyId: string; employeeName: string; dueOn: string; requestId: string }): Promise<void> {
  for (const address of to) {
    await ports.mailer.send({
      companyId: options.companyId,
      to: address,
      subject: `Paybench: ${options.employeeName} asked for their pay information`,
      text: `${options.employeeName} asked for their pay information (EU Pay Transparency Directive, Article 7). The answer is prepared from people data and waits for your check; it must reach them by ${options.dueOn}.\n\nReview and approve it: ${ports.publicUrl}/pay-transparency/requests/${options.requestId}`,
    });
  }
}

export async function mailClarificationAsked(ports: Pick<NotifyPorts, 'mailer' | 'publicUrl'>, to: readonly string[], options: { companyId: string; employeeName: string; dueOn: string; requestId: string }): Promise<void> {
  for (const address of to) {
    await ports.mailer.send({
      companyId: options.companyId,
      to: address,
      subject: `Paybench: ${options.employeeName} asked for clarification of their pay information`,
      text: `${options.employeeName} finds the pay information they were given inaccurate or incomplete and asks for clarification (EU Pay Transparency Directive, Article 7(5)). They are owed a reasoned reply by ${options.dueOn}.\n\nRead the question and reply: ${ports.publicUrl}/pay-transparency/requests/${options.requestId}`,
    });
  }
}

export async function mailClarificationReminder(ports: NotifyPorts, to: readonly string[], options: { companyId: string; employeeName: string; dueOn: string; requestId: string }): Promise<void> {
  for (const address of to) {
    await ports.mailer.send({
      companyId: options.companyId,
      to: address,
      subject: `Paybench: a request for clarification is due on ${options.dueOn}`,
      text: `${options.employeeName} asked for clarification of their pay information. The reasoned reply must reach them by ${options.dueOn}. It has not been sent yet.\n\nReply: ${ports.publicUrl}/pay-transparency/requests/${options.requestId}`,
    });
  }
}

export async function mailClarificationReplied(ports: Pick<NotifyPorts, 'mailer' | 'publicUrl'>, email: string | undefined, options: { companyId: string; withFigures: boolean }): Promise<void> {
  if (!email) return;
  await ports.mailer.send({
    companyId: options.companyId,
    to: email,
    subject: 'Paybench: the reply to your request for clarification',
    text: `HR replied to your request for clarification of your pay information${options.withFigures ? ', with the figures prepared again' : ''}.\n\nRead it here: ${ports.publicUrl}/pay-information`,
  });
}
