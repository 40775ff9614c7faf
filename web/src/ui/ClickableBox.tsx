import type { KeyboardEvent, ReactNode } from 'react';

interface ClickableBoxProps {
  onActivate: () => void;
  children: ReactNode;
  /** For toggles: whether the box is selected (announced as pressed). */
  pressed?: boolean;
  className?: string;
  label?: string;
  disabled?: boolean;
}

/** A box that acts as a button: click, Enter or Space activate it (spec §9). Holds no other controls. */
export function ClickableBox({ onActivate, children, pressed, className, label, disabled = false }: ClickableBoxProps) {
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (disabled) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault(); // Space would scroll the page
      onActivate();
    }
  }
  return (
    <div
      role="button"
      tabIndex={disabled ? -1 : 0}
      aria-pressed={pressed}
      aria-disabled={disabled || undefined}
      aria-label={label}
      className={['clickable-box', pressed ? 'selected' : '', className ?? ''].join(' ').trim()}
      onClick={disabled ? undefined : onActivate}
      onKeyDown={onKeyDown}
    >
      {children}
    </div>
  );
}
