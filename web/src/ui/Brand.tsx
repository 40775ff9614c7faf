/** Paybench's own mark: three rising bars on a navy tile (the favicon and app icon are the same drawing). */
export function PaybenchMark({ size = 28, title }: { size?: number; title?: string }) {
  return (
    <svg className="brand-mark" width={size} height={size} viewBox="0 0 64 64" role={title ? 'img' : undefined} aria-label={title} aria-hidden={title ? undefined : true} focusable="false">
      <rect width="64" height="64" rx="14" fill="#3b5bdb" />
      <rect x="14" y="34" width="8" height="16" rx="2" fill="#bac8ff" />
      <rect x="28" y="24" width="8" height="26" rx="2" fill="#dbe4ff" />
      <rect x="42" y="14" width="8" height="36" rx="2" fill="#ffffff" />
    </svg>
  );
}

/** The mark and the word, as the navigation shows them. */
export function Brand({ compact = false }: { compact?: boolean }) {
  return (
    <span className="brand">
      <PaybenchMark />
      <span className={compact ? 'visually-hidden' : 'brand-word'}>Paybench</span>
    </span>
  );
}
