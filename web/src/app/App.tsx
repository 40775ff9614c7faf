import { useQuery } from '../api/client';

export function App() {
  const { data, error, isLoading } = useQuery('/api/health');
  const health = data?.data;
  return (
    <main className="shell">
      <h1>Paybench</h1>
      <p className="lede">Pay benchmarking, salary bands, merit cycles, total rewards and offers.</p>
      <section aria-labelledby="status-title" className="card">
        <h2 id="status-title">Server status</h2>
        {isLoading && <p role="status">Checking the server…</p>}
        {error && <p role="alert">The server did not answer. Please wait and try again.</p>}
        {health && (
          <dl>
            <dt>Status</dt>
            <dd data-testid="health-status">{health.status}</dd>
            <dt>Version</dt>
            <dd data-testid="health-version">{health.version}</dd>
            <dt>Database</dt>
            <dd data-testid="health-database">{health.database.engine}</dd>
            <dt>Migrations</dt>
            <dd data-testid="health-migrations">
              {health.database.migrations.upToDate ? 'up to date' : `${health.database.migrations.pending} pending`}
            </dd>
          </dl>
        )}
      </section>
    </main>
  );
}
