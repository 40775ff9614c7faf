import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

interface PageHeaderProps {
  title: ReactNode;
  /** A line above the title (the area, the company). */
  eyebrow?: ReactNode;
  /** A sentence under the title. */
  description?: ReactNode;
  /** Buttons and links for the whole page, at the right (under the title on phones). */
  actions?: ReactNode;
  icon?: LucideIcon;
  /** The title's id, for `aria-labelledby`. */
  id?: string;
}

/** The top of a screen: its one h1, what it is for, and its page-wide actions. */
export function PageHeader({ title, eyebrow, description, actions, icon: Icon, id }: PageHeaderProps) {
  return (
    <header className="page-header">
      <div className="page-header-text">
        {eyebrow && <p className="eyebrow">{eyebrow}</p>}
        <h1 id={id}>
          {Icon && <Icon className="page-header-icon" size={26} aria-hidden="true" />}
          {title}
        </h1>
        {description && <p className="lede">{description}</p>}
      </div>
      {actions && <div className="page-header-actions">{actions}</div>}
    </header>
  );
}

/** A row of controls that act on what is below it (count, export, columns); it wraps on phones. */
export function Toolbar({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={className ? `toolbar ${className}` : 'toolbar'} role="group" aria-label={label}>
      {children}
    </div>
  );
}

/** A titled card of a screen: heading, optional actions at its right, and its body. */
export function Section({ title, id, actions, children, className }: { title: ReactNode; id: string; actions?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section className={className ? `section-card ${className}` : 'section-card'} aria-labelledby={id}>
      <header className="section-head">
        <h2 id={id}>{title}</h2>
        {actions}
      </header>
      {children}
    </section>
  );
}
