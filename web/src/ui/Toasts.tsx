import { atom, useAtom } from 'jotai';
import { useCallback, useEffect, useRef, useState } from 'react';

export type ToastType = 'error' | 'info' | 'success' | 'warning';

export interface Toast {
  id: string;
  type: ToastType;
  message: string;
  /** Milliseconds; 0 or less stays until closed. */
  duration: number;
}

export const DEFAULT_TOAST_MS = 10_000;
/** The slide's exit (spec §9: enter 0.3 s, exit 0.2 s); none when the person asks for reduced motion. */
export const TOAST_EXIT_MS = 200;

/** How long a leaving toast stays on screen before it is removed. */
export function exitDelay(reducedMotion: boolean): number {
  return reducedMotion ? 0 : TOAST_EXIT_MS;
}

const prefersReducedMotion = (): boolean => typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
export const toastsAtom = atom<Toast[]>([]);

export function useToasts() {
  const [toasts, setToasts] = useAtom(toastsAtom);
  const remove = (id: string) => setToasts((list) => list.filter((toast) => toast.id !== id));
  const add = (type: ToastType, message: string, duration = DEFAULT_TOAST_MS) =>
    setToasts((list) => [...list, { id: crypto.randomUUID(), type, message, duration }]);
  return { toasts, add, remove };
}

function ToastItem({ toast, onClose }: { toast: Toast; onClose: () => void }) {
  const [leaving, setLeaving] = useState(false);
  const exit = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Closing (the button or the timeout) slides the toast out first, then removes it.
  const leave = useCallback(() => {
    if (exit.current !== undefined) return;
    setLeaving(true);
    exit.current = setTimeout(onClose, exitDelay(prefersReducedMotion()));
  }, [onClose]);
  useEffect(() => () => clearTimeout(exit.current), []);
  useEffect(() => {
    if (toast.duration <= 0) return;
    const timer = setTimeout(leave, toast.duration);
    return () => clearTimeout(timer);
  }, [toast.duration, leave]);
  return (
    <div className={`toast toast-${toast.type}${leaving ? ' leaving' : ''}`} role={toast.type === 'error' ? 'alert' : 'status'} data-leaving={leaving || undefined}>
      <span>{toast.message}</span>
      <button type="button" className="toast-close" aria-label="Close" onClick={leave}>
        ×
      </button>
    </div>
  );
}

/** Toasts at the bottom of the screen, 560 px wide. */
export function Toasts() {
  const { toasts, remove } = useToasts();
  return (
    <div className="toasts">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} onClose={() => remove(toast.id)} />
      ))}
    </div>
  );
}
