import { useState } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, useQuery } from '../../api/client';
import { DataTable } from '../../ui/DataTable';
import { useToasts } from '../../ui/Toasts';

type CheckoutRequest = components['schemas']['CheckoutRequest'];

export const PLAN_TEXT: Record<components['schemas']['PremiumPlan'], string> = {
  premium_annual: 'Premium benchmarking, billed yearly',
  premium_monthly: 'Premium benchmarking, billed monthly',
};

/** Invoice requests for premium benchmarking: send the invoice, then mark the request fulfilled once paid. */
export function CheckoutRequests() {
  const requests = useQuery('/api/internal/checkout-requests');
  const { add } = useToasts();
  const [busy, setBusy] = useState<string | null>(null);
  async function fulfil(row: CheckoutRequest) {
    setBusy(row.id);
    const { error } = await api.POST('/api/internal/checkout-requests/{checkoutRequestId}/fulfil', { params: { path: { checkoutRequestId: row.id } } });
    setBusy(null);
    if (error) return add('error', errorMessage(error));
    add('success', `Premium benchmarking is now on for ${row.company.name}.`);
    await requests.mutate();
  }
  if (requests.error) return <p role="alert">{errorMessage(requests.error)}</p>;
  if (!requests.data) return <p className="muted">Loading invoice requests…</p>;
  if (requests.data.data.length === 0) return <p className="muted">No company has asked for premium benchmarking yet.</p>;
  return (
    <DataTable
      caption="Invoice requests for premium benchmarking"
      // Wider than a narrow screen: the scrolling region takes keyboard focus.
      regionLabel="Invoice requests for premium benchmarking"
      rows={requests.data.data}
      rowKey={(row) => row.id}
      columns={[
        { key: 'reference', header: 'Reference', rowHeader: true, cell: (row) => row.reference },
        { key: 'company', header: 'Company', cell: (row) => row.company.name },
        { key: 'plan', header: 'Plan', className: 'wrap', cell: (row) => PLAN_TEXT[row.plan] },
        { key: 'by', header: 'Asked by', className: 'wrap', cell: (row) => `${row.requestedBy.name} (${row.requestedBy.email})` },
        { key: 'at', header: 'Asked', cell: (row) => new Date(row.requestedAt).toLocaleString() },
        {
          key: 'status',
          header: 'Status',
          cell: (row) =>
            row.status === 'fulfilled' ? (
              `Fulfilled${row.fulfilledAt ? ` ${new Date(row.fulfilledAt).toLocaleDateString()}` : ''}${row.fulfilledBy ? ` by ${row.fulfilledBy}` : ''}`
            ) : (
              <button type="button" aria-busy={busy === row.id} disabled={busy !== null} onClick={() => void fulfil(row)} aria-label={`Mark ${row.reference} fulfilled`}>
                Mark fulfilled
              </button>
            ),
        },
      ]}
    />
  );
}
