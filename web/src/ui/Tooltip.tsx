import { type ReactElement, type ReactNode, cloneElement, useEffect, useId, useState } from 'react';

interface TooltipProps {
  /** What the tooltip says; it describes the trigger (`aria-describedby`), it never names it. */
  content: ReactNode;
  /** One focusable element: a button or a link. */
  children: ReactElement<{ 'aria-describedby'?: string }>;
  side?: 'top' | 'right' | 'bottom';
}

/**
 * A short description that shows while the trigger is hovered or focused (layer tooltip, 1700) and
 * goes on Escape. Never the only place something is said: the trigger keeps its own name.
 */
export function Tooltip({ content, children, side = 'top' }: TooltipProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  return (
    <span
      className="tooltip-host"
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onFocus={() => setOpen(true)}
      onBlur={() => setOpen(false)}
    >
      {cloneElement(children, { 'aria-describedby': id })}
      <span id={id} role="tooltip" className={`tooltip tooltip-${side}`} hidden={!open}>
        {content}
      </span>
    </span>
  );
}
