import type { ReactNode } from 'react';
import { PaybenchMark } from './Brand';

interface FailureProps {
  title: string;
  description: string;
  actions?: ReactNode;
}

/** Warning icon, title, description, optional actions. */
export function FailureScreen({ title, description, actions }: FailureProps) {
  return (
    <section className="failure" aria-labelledby="failure-title">
      <svg className="failure-icon" viewBox="0 0 24 24" aria-hidden="true">
        <path d="M12 2 1 21h22L12 2zm0 6 .01 7M12 18h.01" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <h1 id="failure-title">{title}</h1>
      <p>{description}</p>
      {actions && <div className="failure-actions">{actions}</div>}
    </section>
  );
}

/** The error screen: a card with the logo, an error view, and the terms and MSA links. */
export function ErrorScreen({ children }: { children: ReactNode }) {
  return (
    <main className="error-screen">
      <div className="card error-card">
        <PaybenchMark size={40} title="Paybench" />
        {children}
        <footer className="error-links">
          <a href="/legal/terms.html">Terms and conditions</a>
          <a href="/legal/msa.html">Master service agreement</a>
        </footer>
      </div>
    </main>
  );
}
