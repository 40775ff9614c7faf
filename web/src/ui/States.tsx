import type { ReactNode } from 'react';
import { TRY_AGAIN, errorMessage, statusOf } from '../api/client';
import { FailureScreen } from './Screens';
import { FullSizeSpinner } from './Spinner';

/** A failed answer as a screen, titled in the catalogue's words for its status, with an optional retry. */
export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  const status = statusOf(error);
  const title = status === 404 ? 'Not found' : status === 401 || status === 403 ? 'Permission denied' : 'Something went wrong';
  return (
    <FailureScreen
      title={title}
      description={errorMessage(error, TRY_AGAIN)}
      actions={
        retry ? (
          <button type="button" onClick={retry}>
            Try again
          </button>
        ) : undefined
      }
    />
  );
}

/** Nothing to show yet: a title and, optionally, what would fill it. */
export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state" role="status">
      <svg viewBox="0 0 24 24" aria-hidden="true" width="40" height="40">
        <circle cx="9" cy="8" r="4" fill="none" stroke="currentColor" strokeWidth="1.6" />
        <path d="M2 21c0-4 3-6 7-6s7 2 7 6M17 11a3 3 0 1 0 0-6M22 20c0-3-2-5-5-5.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
      </svg>
      <h2>{title}</h2>
      {children && <p>{children}</p>}
    </div>
  );
}

interface LoadedProps<T> {
  data: T | undefined;
  error: unknown;
  /** Offered on the error screen. */
  retry?: () => void;
  /** What the spinner says while loading. */
  label?: string;
  /** A failure as a line in the page (`role="alert"`, the server's message) instead of an error screen. */
  inline?: boolean;
  children: (data: T) => ReactNode;
}

/** Loading → spinner, failure → error screen (or an inline alert), else the page. */
export function Loaded<T>({ data, error, retry, label, inline = false, children }: LoadedProps<T>) {
  if (error) return inline ? <p role="alert">{errorMessage(error)}</p> : <ErrorState error={error} retry={retry} />;
  if (data === undefined) return <FullSizeSpinner loading label={label} />;
  return <>{children(data)}</>;
}
