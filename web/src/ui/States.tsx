import { Inbox, type LucideIcon, WifiOff } from 'lucide-react';
import type { ReactNode } from 'react';
import { TRY_AGAIN, errorMessage, statusOf } from '../api/client';
import { catalogueText } from '../api/errors';
import { FailureScreen } from './Screens';
import { FullSizeSpinner } from './Spinner';

/** A failed answer as a screen, titled in the catalogue's words for its status, with an optional retry. */
export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  const status = statusOf(error);
  const title = catalogueText(status).title;
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

interface EmptyProps {
  title: string;
  /** What would fill it, in a sentence. */
  children?: ReactNode;
  /** What to do next: a link or a button (e.g. "Import people"). */
  action?: ReactNode;
  icon?: LucideIcon;
  /** The heading's level where the empty state sits under an h2 (default h2). */
  headingLevel?: 2 | 3;
  /** Smaller, for a tile or a panel rather than a whole screen. */
  compact?: boolean;
}

/** Nothing to show yet: what it is, why it is empty, and what to do next. */
export function Empty({ title, children, action, icon: Icon = Inbox, headingLevel = 2, compact = false }: EmptyProps) {
  const Heading = headingLevel === 3 ? 'h3' : 'h2';
  return (
    <div className={compact ? 'empty-state compact' : 'empty-state'} role="status">
      <span className="empty-icon" aria-hidden="true">
        <Icon size={compact ? 22 : 28} />
      </span>
      <Heading>{title}</Heading>
      {children && <p>{children}</p>}
      {action && <div className="empty-action">{action}</div>}
    </div>
  );
}

/**
 * A screen the service worker keeps for offline reading, opened offline before it was ever opened on
 * this device: says so, with a retry for when the connection is back. `what` names it ("letter").
 */
export function NotSavedOffline({ what, retry }: { what: string; retry: () => void }) {
  return (
    <Empty title={`This ${what} is not saved on this device`} icon={WifiOff} action={<button type="button" onClick={retry}>Try again</button>}>
      You are offline, and this {what} was not opened on this device before. Connect to the internet and open it once; after that it stays readable here offline.
    </Empty>
  );
}

interface LoadedProps<T> {
  data: T | undefined;
  error: unknown;
  /** Offered on the error screen. */
  retry?: () => void;
  /** What the spinner says while loading. */
  label?: string;
  /** Where the layout is known: its skeleton instead of the spinner. */
  skeleton?: ReactNode;
  /** A failure as a line in the page (`role="alert"`, the server's message) instead of an error screen. */
  inline?: boolean;
  children: (data: T) => ReactNode;
}

/** Loading → the skeleton (or a spinner where the layout is unknown), failure → error screen (or an inline alert), else the page. */
export function Loaded<T>({ data, error, retry, label, skeleton, inline = false, children }: LoadedProps<T>) {
  if (error) return inline ? <p role="alert">{errorMessage(error)}</p> : <ErrorState error={error} retry={retry} />;
  if (data === undefined) return skeleton ? <>{skeleton}</> : <FullSizeSpinner loading label={label} />;
  return <>{children(data)}</>;
}
