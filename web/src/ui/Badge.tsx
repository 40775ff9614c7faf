import type { ReactNode } from 'react';

export type Tone = 'accent' | 'neutral' | 'success' | 'warning' | 'danger' | 'info';

/** A short status or label in a pill; the tone is colour and never the only signal (the words say it). */
export function Badge({ tone = 'accent', children, className }: { tone?: Tone; children: ReactNode; className?: string }) {
  const classes = ['badge', tone === 'accent' ? '' : tone, className ?? ''].filter(Boolean).join(' ');
  return <span className={classes}>{children}</span>;
}
