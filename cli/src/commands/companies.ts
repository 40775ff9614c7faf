import { call, createApi } from '../client.js';
import { RejectedInput, hint, printJson } from '../output.js';
import type { CommandContext } from './users.js';

export interface CreateCompanyOptions {
  name: string;
  domain?: string[];
  currency?: string;
  adminEmail: string;
  adminFirstName: string;
  adminLastName: string;
  invitation: boolean;
}

/**
 * Sets up a participant (internal admins): the company and its first admin, invited by e-mail.
 * Prints the company id on stdout, so `id=$(paybench companies create …)` works.
 */
export async function createCompanyCommand(ctx: CommandContext, options: CreateCompanyOptions): Promise<void> {
  const currency = options.currency?.trim().toUpperCase();
  if (currency !== undefined && !/^[A-Z]{3}$/.test(currency)) throw new RejectedInput(`--currency: "${options.currency}" is not a three-letter ISO 4217 code.`);
  const body = {
    company: { name: options.name, ...(options.domain?.length ? { domains: options.domain.map((domain) => domain.toLowerCase()) } : {}), ...(currency ? { currency } : {}) },
    admin: { email: options.adminEmail, firstName: options.adminFirstName, lastName: options.adminLastName },
    sendInvitation: options.invitation,
  };
  const created = (await call(ctx.connection, createApi(ctx.connection).POST('/api/internal/companies', { body }))).data;
  if (ctx.output.json) return printJson(created);
  process.stdout.write(`${created.company.id}\n`);
  const invited = created.admin.invitation;
  hint(
    invited
      ? `Created ${created.company.name}; ${created.admin.user.email} is its admin and was invited to choose a password (the link works until ${invited.expiresAt ?? 'they sign in'}).`
      : `Created ${created.company.name}; ${created.admin.user.email} is its admin. No invitation was sent.`,
  );
}

export interface AddPersonOptions {
  email: string;
  firstName: string;
  lastName: string;
  role?: string[];
  candidate?: boolean;
  invitation: boolean;
}

/**
 * `paybench companies add-person COMPANY` (internal admins): a person with roles in a customer's
 * company, invited by e-mail, for support staff setting up its people. Prints the person's id.
 */
export async function addPersonCommand(ctx: CommandContext, companyId: string, options: AddPersonOptions): Promise<void> {
  if (options.candidate && options.role?.length) throw new RejectedInput('A candidate holds no roles: leave out --role or --candidate.');
  const body = {
    email: options.email,
    firstName: options.firstName,
    lastName: options.lastName,
    ...(options.role?.length ? { roleKeys: options.role } : {}),
    isCandidate: Boolean(options.candidate),
    sendInvitation: options.invitation,
    invite: options.invitation,
  };
  const added = (await call(ctx.connection, createApi(ctx.connection).POST('/api/internal/companies/{companyId}/accounts', { params: { path: { companyId } }, body }))).data;
  if (ctx.output.json) return printJson(added);
  process.stdout.write(`${added.user.id}\n`);
  hint(
    added.invitation
      ? `Added ${added.user.email}; the invitation went to ${added.invitation.sentTo}${added.invitation.expiresAt ? ` (the link works until ${added.invitation.expiresAt})` : ''}.`
      : `Added ${added.user.email}. No invitation was sent.`,
  );
}
