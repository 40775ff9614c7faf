import type { ReactNode } from 'react';

export type SpinnerTheme = 'light' | 'dark' | 'monotone' | 'custom';

interface SpinnerProps {
  loading: boolean;
  theme?: SpinnerTheme;
  /** With `custom`: the colour of the moving arc. */
  color?: string;
  /** Show children under the spinner instead of instead of it. */
  overlay?: boolean;
  size?: number;
  label?: string;
  children?: ReactNode;
}

/** The full-size spinner (65 px, 1.4 s, z-index 100); children show when not loading, or beneath in overlay mode. */
export function FullSizeSpinner({ loading, theme = 'light', color, overlay = false, size = 65, label = 'Loading', children }: SpinnerProps) {
  if (!loading) return <>{children}</>;
  const spinner = (
    <div className={`spinner spinner-${theme}`} role="status" aria-live="polite">
      <span className="spinner-arc" style={{ width: size, height: size, borderTopColor: theme === 'custom' ? color : undefined }} />
      <span className="visually-hidden">{label}</span>
    </div>
  );
  return overlay ? (
    <div className="spinner-overlay-host">
      {children}
      {spinner}
    </div>
  ) : (
    spinner
  );
}
