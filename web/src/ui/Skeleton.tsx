import type { CSSProperties, ReactNode } from 'react';

/** One grey shape where content will be; hidden from assistive tech (the group says "Loading"). */
export function Skeleton({ width, height = 16, radius, className }: { width?: CSSProperties['width']; height?: CSSProperties['height']; radius?: CSSProperties['borderRadius']; className?: string }) {
  return <span className={className ? `skeleton ${className}` : 'skeleton'} aria-hidden="true" style={{ width, height, borderRadius: radius }} />;
}

/** What is loading, said once for screen readers; the shapes inside are decoration. */
function Loading({ label, className, children }: { label: string; className: string; children: ReactNode }) {
  return (
    <div className={`skeleton-group ${className}`} role="status" aria-busy="true" aria-live="polite">
      <span className="visually-hidden">{label}</span>
      {children}
    </div>
  );
}

/** Lines of text, the last one shorter. */
export function SkeletonText({ lines = 3, label = 'Loading' }: { lines?: number; label?: string }) {
  return (
    <Loading label={label} className="skeleton-text">
      {Array.from({ length: lines }, (_, index) => (
        <Skeleton key={index} width={index === lines - 1 ? '60%' : '100%'} />
      ))}
    </Loading>
  );
}

/** A row of stat cards, as `StatCard` lays them out. */
export function SkeletonStats({ count = 4, label = 'Loading the figures' }: { count?: number; label?: string }) {
  return (
    <Loading label={label} className="stat-grid">
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className="stat-card skeleton-card">
          <Skeleton width="45%" height={14} />
          <Skeleton width="70%" height={30} />
          <Skeleton width="55%" height={12} />
        </div>
      ))}
    </Loading>
  );
}

/** A table (or, on phones, its cards): a header row and `rows` rows of `columns` cells. */
export function SkeletonTable({ rows = 6, columns = 4, label = 'Loading the table' }: { rows?: number; columns?: number; label?: string }) {
  return (
    <Loading label={label} className="skeleton-table">
      {Array.from({ length: rows + 1 }, (_, row) => (
        <div key={row} className={row === 0 ? 'skeleton-row head' : 'skeleton-row'} style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}>
          {Array.from({ length: columns }, (_, column) => (
            <Skeleton key={column} width={column === 0 ? '80%' : '60%'} height={row === 0 ? 12 : 14} />
          ))}
        </div>
      ))}
    </Loading>
  );
}

/** Cards in a grid (lists of tiles, reports, connections). */
export function SkeletonCards({ count = 3, label = 'Loading' }: { count?: number; label?: string }) {
  return (
    <Loading label={label} className="skeleton-cards">
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className="card skeleton-card">
          <Skeleton width="50%" height={18} />
          <Skeleton width="90%" />
          <Skeleton width="70%" />
        </div>
      ))}
    </Loading>
  );
}

/** A chart's box while its data or its code arrives. */
export function SkeletonChart({ height = 260, label = 'Loading the chart' }: { height?: number; label?: string }) {
  return (
    <Loading label={label} className="skeleton-chart">
      <Skeleton width="100%" height={height} radius="var(--radius-md)" />
    </Loading>
  );
}
