import { X } from 'lucide-react';
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from 'react';

interface DialogProps {
  /** The element whose text names the dialog. */
  labelledBy: string;
  onClose: () => void;
  children: ReactNode;
  /** The look: a centred modal, or a sheet (see `Sheet`). */
  className?: string;
  backdropClassName?: string;
  /** `alertdialog` for a question that needs an answer before anything else (a confirmation). */
  role?: 'dialog' | 'alertdialog';
  /** The element whose text says what the dialog is about (an alert dialog's question). */
  describedBy?: string;
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Tab and Shift+Tab go round the dialog's own controls, never behind it. */
function keepFocusInside(event: KeyboardEvent<HTMLDivElement>, container: HTMLElement | null) {
  if (!container) return;
  const focusable = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => element.offsetParent !== null || element === document.activeElement);
  const first = focusable[0];
  const last = focusable.at(-1);
  if (!first || !last) {
    event.preventDefault();
    return;
  }
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === container)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * The behaviour every dialog shares: focus moves in when it opens, stays inside while it is open
 * and goes back when it closes; Escape or a press on the backdrop closes it.
 */
export function Dialog({ labelledBy, onClose, children, className = 'modal', backdropClassName = 'modal-backdrop', role = 'dialog', describedBy }: DialogProps) {
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    dialog.current?.focus();
    return () => previous?.focus?.();
  }, []);
  return (
    <div className={backdropClassName} onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div
        ref={dialog}
        className={className}
        role={role}
        aria-modal="true"
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        tabIndex={-1}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onClose();
          else if (event.key === 'Tab') keepFocusInside(event, dialog.current);
        }}
      >
        {children}
      </div>
    </div>
  );
}

/** The close button every dialog has: an icon with the name "Close". */
export function CloseButton({ onClose, label = 'Close' }: { onClose: () => void; label?: string }) {
  return (
    <button type="button" className="ghost icon-button" aria-label={label} onClick={onClose}>
      <X size={20} aria-hidden="true" />
    </button>
  );
}

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  /** See `Dialog`: an alert dialog asks a question, which `describedBy` names. */
  role?: 'dialog' | 'alertdialog';
  describedBy?: string;
}

/** A dialog at the modal layer, with a title, a close button and an optional footer. */
export function Modal({ title, onClose, children, footer, role, describedBy }: ModalProps) {
  const titleId = useId();
  return (
    <Dialog labelledBy={titleId} onClose={onClose} role={role} describedBy={describedBy}>
      <header className="modal-head">
        <h2 id={titleId}>{title}</h2>
        <CloseButton onClose={onClose} />
      </header>
      <div className="modal-body">{children}</div>
      {footer && <footer className="modal-foot">{footer}</footer>}
    </Dialog>
  );
}

interface SheetProps {
  /** The sheet's heading (and its accessible name). */
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  /** `right`: a drawer from the side (a full screen on phones); `bottom`: a sheet from the bottom edge. */
  side?: 'right' | 'bottom';
  /** Sticks to the foot of the sheet (e.g. "Show 12 results"). */
  footer?: ReactNode;
  /** Extra class on the panel, e.g. the team drawer's width. */
  className?: string;
  /** Where the close button's text is wanted instead of an icon. */
  closeLabel?: string;
}

/**
 * A drawer or sheet: a dialog that slides in from an edge (300 ms in, spec), with its title, a close
 * button and a footer that stays in view. Keyboard and focus as every `Dialog`.
 */
export function Sheet({ title, onClose, children, side = 'right', footer, className, closeLabel }: SheetProps) {
  const titleId = useId();
  return (
    <Dialog labelledBy={titleId} onClose={onClose} className={['sheet', `sheet-${side}`, className ?? ''].join(' ').trim()} backdropClassName={`sheet-backdrop sheet-backdrop-${side}`}>
      <header className="sheet-head">
        <h2 id={titleId}>{title}</h2>
        {closeLabel ? (
          <button type="button" className="small" onClick={onClose}>
            {closeLabel}
          </button>
        ) : (
          <CloseButton onClose={onClose} />
        )}
      </header>
      {/* Focusable so a keyboard can scroll a long body even when it holds nothing focusable (WCAG 2.1.1). */}
      <div className="sheet-body" tabIndex={0} role="region" aria-labelledby={titleId}>
        {children}
      </div>
      {footer && <footer className="sheet-foot">{footer}</footer>}
    </Dialog>
  );
}
