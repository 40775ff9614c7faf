import { useEffect } from 'react';
import { useParams } from 'wouter';
import { useQuery } from '../../api/client';
import { FullSizeSpinner } from '../../ui/Spinner';
import { ExchangeRatesNote, ExecutiveResultsTable, ResultsTable } from './ResultsTable';
import './benchmarking.css';

/** Why a collaborator's link no longer opens, in their words. */
function closedReason(error: unknown): string {
  const code = error && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
  switch (code) {
    case 'collaborator_link_revoked':
      return 'This link was revoked. Ask the person who invited you for a new one.';
    case 'collaborator_link_expired':
      return 'This link has expired. Ask the person who invited you for a new one.';
    case 'slice_revoked':
      return 'The company stopped sharing this slice.';
    case 'slice_expired':
      return 'This shared slice has closed.';
    default:
      return 'The link may be mistyped or incomplete.';
  }
}

/** /collaborator/:collaboratorToken: the one shared slice a collaborator's link opens, read-only, without an account. */
export function CollaboratorSliceScreen() {
  const { collaboratorToken = '' } = useParams<{ collaboratorToken: string }>();
  const view = useQuery('/api/collaborator-slices/{collaboratorToken}', { params: { path: { collaboratorToken } } });
  const data = view.data?.data;
  useEffect(() => {
    if (data) document.title = `${data.title} · shared by ${data.companyName}`;
  }, [data]);
  if (view.error) {
    return (
      <main className="collaborator-slice closed" id="main">
        <h1>This shared slice is not available</h1>
        <p>{closedReason(view.error)}</p>
      </main>
    );
  }
  if (!data) return <FullSizeSpinner loading label="Loading the shared slice" />;
  const names = new Map(data.names.map((entry) => [entry.id, entry.name]));
  const name = (id: string) => names.get(id) ?? id;
  const marketLabel = (index: number) => {
    const market = data.markets[index] ?? `Market ${index + 1}`;
    return data.markets.length > 1 ? `Market ${index + 1}: ${market}` : market;
  };
  return (
    <main className="collaborator-slice" id="main">
      <header className="slice-head">
        <p className="eyebrow">
          {data.companyName} shared {data.kind === 'executive' ? 'executive compensation' : 'market data'} with you
        </p>
        <h1>{data.title}</h1>
        <p className="muted">
          Shared by {data.invitedBy} on {new Date(data.sharedAt).toLocaleDateString()} · market release {data.releaseVersion} · as it was then · read-only for {data.email}, open
          until {new Date(data.expiresAt).toLocaleDateString()}
        </p>
      </header>
      {data.result && (
        <>
          <ResultsTable result={data.result} name={name} marketLabel={marketLabel} />
          <ExchangeRatesNote result={data.result} />
        </>
      )}
      {data.executiveResult && <ExecutiveResultsTable result={data.executiveResult} name={name} />}
      <p className="muted small-text">Figures from Paybench’s market data. Cells with too few companies or employees are withheld to protect their privacy.</p>
    </main>
  );
}
