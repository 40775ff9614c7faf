import { atom, useAtom } from 'jotai';
import { useEffect } from 'react';

export type ToastType = 'error' | 'info' | 'success' | 'warning';

export interface Toast {
  id: string;
  type: ToastType;
  message: string;
  /** Milliseconds; 0 or less stays until closed. */
  duration: number;
}

export const DEFAULT_TOAST_MS = 10_000;
export const toastsAtom = atom<Toast[]>([]);

export function useToasts() {
  const [toasts, setToasts] = useAtom(toastsAtom);
  const remove = (id: string) => setToasts((list) => list.filter((toast) => toast.id !== id));
  const add = (type: ToastType, message: string, duration = DEFAULT_TOAST_MS) =>
    setToasts((list) => [...list, { id: crypto.randomUUID(), type, message, duration }]);
  return { toasts, add, remove };
}

function ToastItem({ toast, onClose }: { toast: Toast; onClose: () => void }) {
  useEffect(() => {
    if (toast.duration <= 0) return;
    const timer = setTimeout(onClose, toast.duration);
    return () => clearTimeout(timer);
  }, [toast.duration, onClose]);
  return (
    <div className={`toast toast-${toast.type}`} role={toast.type === 'error' ? 'alert' : 'status'}>
      <span>{toast.message}</span>
      <button type="button" className="toast-close" aria-label="Close" onClick={onClose}>
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
