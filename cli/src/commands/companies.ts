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
