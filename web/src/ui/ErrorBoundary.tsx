import { Component, type ErrorInfo, type ReactNode } from 'react';
import { reportClientError } from '../api/errorReporting';
import { OTHER_ERROR, catalogueText } from '../api/errors';
import { ErrorScreen } from './Screens';

interface AppErrorLike {
  title?: string;
  description?: string;
  status?: number;
}

interface Props {
  children: ReactNode;
  /** The boundary resets when any of these change (for example the route). */
  resetKeys?: unknown[];
  title?: string;
  description?: string;
  /** The remote override Paybench sets for a company (`CompanyProfile.errorScreen`) wins over everything else. */
  override?: { title?: string; description?: string };
}

/** Text precedence: remote override, then the app error's own, then the props, then the HTTP status, then the default. */
export function errorText(error: unknown, props: Pick<Props, 'title' | 'description' | 'override'>) {
  const app = (typeof error === 'object' && error !== null ? error : {}) as AppErrorLike;
  // The spec's error catalogue (§8), one table for the whole client.
  const status = app.status !== undefined ? catalogueText(app.status) : undefined;
  return {
    title: props.override?.title ?? app.title ?? props.title ?? status?.title ?? OTHER_ERROR.title,
    description: props.override?.description ?? app.description ?? props.description ?? status?.description ?? OTHER_ERROR.description,
  };
}

export class ErrorBoundary extends Component<Props, { error: unknown; keys: unknown[] | undefined }> {
  override state = { error: undefined as unknown, keys: this.props.resetKeys };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: { error: unknown; keys: unknown[] | undefined }) {
    const changed = (props.resetKeys ?? []).some((key, index) => !Object.is(key, state.keys?.[index]));
    return changed ? { error: undefined, keys: props.resetKeys } : null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    reportClientError(error, info.componentStack ?? undefined);
  }

  reset = () => this.setState({ error: undefined });

  override render() {
    if (this.state.error === undefined) return this.props.children;
    const text = errorText(this.state.error, this.props);
    return (
      <ErrorScreen>
        <h1>{text.title}</h1>
        <p>{text.description}</p>
        <button type="button" className="primary" onClick={this.reset}>
          Try again
        </button>
      </ErrorScreen>
    );
  }
}
