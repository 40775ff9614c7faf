import type { components } from '../contract-types.js';
import { isoTimestamp, isoTimestampOrNull } from '../db/timestamps.js';
import type { CheckoutRequestListRow, CheckoutRequestRow, PremiumRow } from './store.js';

type Schemas = components['schemas'];

export function presentPremium(premium: PremiumRow | undefined, open: CheckoutRequestRow | undefined): Schemas['PremiumBenchmarking'] {
  return {
    premium: Boolean(premium),
    since: premium ? isoTimestamp(premium.since) : null,
    openRequest: open ? { reference: open.reference, plan: open.plan, invoiceTo: open.invoice_to, requestedAt: isoTimestamp(open.requested_at) } : null,
  };
}

export function presentCheckoutRequest(row: CheckoutRequestListRow): Schemas['CheckoutRequest'] {
  const fulfilledBy = [row.fulfilled_by_first_name, row.fulfilled_by_last_name].filter(Boolean).join(' ');
  return {
    id: row.id,
    reference: row.reference,
    company: { id: row.company_id, name: row.company_name },
    plan: row.plan,
    requestedBy: { id: row.requested_by_user_id, name: row.requested_by_name, email: row.invoice_to },
    requestedAt: isoTimestamp(row.requested_at),
    status: row.status,
    fulfilledAt: isoTimestampOrNull(row.fulfilled_at),
    fulfilledBy: row.status === 'fulfilled' ? fulfilledBy || null : null,
  };
}
