import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { SWRConfig } from 'swr';
import { App } from './app/App';
import './ui/base.css';

// Query-cache rules of the spec (§9): no refetch on focus, reconnect or mount; no retries; fresh for an hour.
const swrConfig = {
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
  revalidateIfStale: false,
  shouldRetryOnError: false,
  dedupingInterval: 60 * 60 * 1000,
};

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <SWRConfig value={swrConfig}>
        <App />
      </SWRConfig>
    </StrictMode>,
  );
}
