import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { SWRConfig } from 'swr';
import { useLocation } from 'wouter';
import { useCompanyProfile } from './api/company';
import { App } from './app/App';
import { usePerson } from './app/person';
import { SessionProvider } from './auth/Session';
import { ErrorBoundary } from './ui/ErrorBoundary';
import { loadCurrencies } from './ui/format';
import { Toasts } from './ui/Toasts';
import { UpdatePrompt } from './ui/UpdatePrompt';
// Inter, self-hosted, only the weights the design uses (regular, semibold, bold) and the Latin subsets.
import '@fontsource/inter/latin-400.css';
import '@fontsource/inter/latin-ext-400.css';
import '@fontsource/inter/latin-600.css';
import '@fontsource/inter/latin-ext-600.css';
import '@fontsource/inter/latin-700.css';
import '@fontsource/inter/latin-ext-700.css';
import './ui/base.css';

// Query-cache rules of the spec (§9): no refetch on focus, reconnect or mount; no retries; fresh for an hour.
const swrConfig = {
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
  revalidateIfStale: false,
  shouldRetryOnError: false,
  dedupingInterval: 60 * 60 * 1000,
};

function Shell() {
  const [location] = useLocation();
  // The spec's remote override of the error screen's words (§4): set by Paybench for the company
  // (e.g. during an incident) and read with the member's company profile.
  const person = usePerson().data?.data;
  const override = useCompanyProfile(Boolean(person?.companyId && !person.isCandidate)).profile?.errorScreen;
  return (
    <ErrorBoundary resetKeys={[location]} override={override}>
      <App />
    </ErrorBoundary>
  );
}

function render(root: HTMLElement) {
  createRoot(root).render(
    <StrictMode>
      <SessionProvider>
        <SWRConfig value={swrConfig}>
          <Shell />
          <Toasts />
          <UpdatePrompt />
        </SWRConfig>
      </SessionProvider>
    </StrictMode>,
  );
}

// Amounts are written with ISO 4217's decimals from the server's currency table (kept offline by
// the service worker): the app renders once it is known. Without it (no network, nothing kept) the
// app still renders, and the screens that need the server say so themselves.
const root = document.getElementById('root');
if (root) void loadCurrencies().catch(() => undefined).finally(() => render(root));
