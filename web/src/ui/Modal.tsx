import { type ReactNode, useEffect, useId, useRef } from 'react';

interface DialogProps {
  /** The element whose text names the dialog. */
  labelledBy: string;
  onClose: () => void;
  children: ReactNode;
  /** The look: a centred modal, or the team view's side drawer. */
  className?: string;
  backdropClassName?: string;
}

/**
 * The behaviour every dialog shares: focus moves in when it opens and back when it closes; Escape
 * or a press on the backdrop closes it.
 */
export function Dialog({ labelledBy, onClose, children, className = 'modal', backdropClassName = 'modal-backdrop' }: DialogProps) {
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
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        tabIndex={-1}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onClose();
        }}
      >
        {children}
      </div>
    </div>
  );
}

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
}

/** A dialog at the modal layer, with a title, a close button and an optional footer. */
export function Modal({ title, onClose, children, footer }: ModalProps) {
  const titleId = useId();
  return (
    <Dialog labelledBy={titleId} onClose={onClose}>
      <header className="modal-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="small" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      <div className="modal-body">{children}</div>
      {footer && <footer className="modal-foot">{footer}</footer>}
    </Dialog>
  );
}
