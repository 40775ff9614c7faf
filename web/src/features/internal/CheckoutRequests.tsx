import type { components } from '../../../../openapi.d.ts';
import { api, useQuery } from '../../api/client';
import { DataTable } from '../../ui/DataTable';
import { ReviewList, useDecision } from './ReviewList';

type CheckoutRequest = components['schemas']['CheckoutRequest'];

export const PLAN_TEXT: Record<components['schemas']['PremiumPlan'], string> = {
  premium_annual: 'Premium benchmarking, billed yearly',
  premium_monthly: 'Premium benchmarking, billed monthly',
};

/** Invoice requests for premium benchmarking: send the invoice, then mark the request fulfilled once paid. */
export function CheckoutRequests() {
  const requests = useQuery('/api/internal/checkout-requests');
  const { busy, decide } = useDecision(() => requests.mutate());
  const fulfil = (row: CheckoutRequest) =>
    decide(row.id, () => api.POST('/api/internal/checkout-requests/{checkoutRequestId}/fulfil', { params: { path: { checkoutRequestId: row.id } } }), `Premium benchmarking is now on for ${row.company.name}.`);
  return (
    <ReviewList answer={requests} loading="Loading invoice requests…" empty="No company has asked for premium benchmarking yet.">
      {(rows) => (
        <DataTable
          caption="Invoice requests for premium benchmarking"
          // Wider than a narrow screen: the scrolling region takes keyboard focus.
          regionLabel="Invoice requests for premium benchmarking"
          rows={rows}
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
      )}
    </ReviewList>
  );
}
