import { ArrowUpRight, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

interface StatCardProps {
  label: string;
  value: ReactNode;
  /** A line under the value: what it counts, or how it was made. */
  hint?: ReactNode;
  /** The screen the figure comes from; the whole card opens it. */
  href?: string;
  /** The link's name where the label alone would be ambiguous (default: the label). */
  linkLabel?: string;
  icon?: LucideIcon;
  /** Marks the value for tests (`data-testid`). */
  testId?: string;
  /** A colour group's swatch before the label (e.g. `var(--comp-base)`). */
  swatch?: string;
}

/**
 * One figure with its label: a card in a grid (`StatGrid`). With `href` the card links to the screen
 * the figure comes from; the label names the link.
 */
export function StatCard({ label, value, hint, href, linkLabel, icon: Icon, testId, swatch }: StatCardProps) {
  const head = (
    <span className="stat-label">
      {swatch && <span className="swatch" style={{ background: swatch }} aria-hidden="true" />}
      {Icon && <Icon size={16} aria-hidden="true" />}
      {href ? (
        <Link href={href} className="stat-link">
          {linkLabel ?? label}
        </Link>
      ) : (
        label
      )}
      {href && <ArrowUpRight className="stat-go" size={16} aria-hidden="true" />}
    </span>
  );
  return (
    <li className={href ? 'stat-card linked' : 'stat-card'}>
      {head}
      <span className="stat-value" data-testid={testId}>
        {value}
      </span>
      {hint && <span className="stat-hint">{hint}</span>}
    </li>
  );
}

/** Stat cards in a responsive grid, as a list with a name. */
export function StatGrid({ label, children }: { label: string; children: ReactNode }) {
  return (
    <ul className="stat-grid" aria-label={label}>
      {children}
    </ul>
  );
}
