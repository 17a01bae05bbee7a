/**
 * The app's notification queue, with its constants (S-CONST-36..40). A plain store (no React), so its
 * rules are tested on their own: `toaster.tsx` renders it.
 */

/** S-CONST-36: one toast visible at a time; a new one replaces the older (S-STATE-23). */
export const TOAST_LIMIT = 1;
/** S-CONST-37: a dismissed toast stays in the store (closed, hidden) this long before it is removed. */
export const TOAST_REMOVE_DELAY = 1_000_000;
/** S-CONST-38: how long a toast stays on screen. */
export const TOAST_DURATION = 5000;
/** S-CONST-39: a swipe this far (px) dismisses the toast; a shorter one snaps back. */
export const SWIPE_THRESHOLD = 50;
/** S-CONST-40: the key that moves focus to the notifications. */
export const TOAST_HOTKEY = "F8";

export type ToastVariant = "success" | "destructive";

export type Toast = {
  id: number;
  title: string;
  description?: string;
  variant: ToastVariant;
  /** False once dismissed: the toast is hidden until `TOAST_REMOVE_DELAY` removes it. */
  open: boolean;
};

type Listener = () => void;

export function createToastStore() {
  let toasts: readonly Toast[] = [];
  let nextId = 1;
  const listeners = new Set<Listener>();
  const removals = new Map<number, ReturnType<typeof setTimeout>>();

  function set(next: readonly Toast[]) {
    toasts = next;
    for (const listener of listeners) listener();
  }

  function forget(id: number) {
    clearTimeout(removals.get(id));
    removals.delete(id);
  }

  function scheduleRemoval(id: number) {
    if (removals.has(id)) return;
    removals.set(
      id,
      setTimeout(() => {
        removals.delete(id);
        set(toasts.filter((toast) => toast.id !== id));
      }, TOAST_REMOVE_DELAY),
    );
  }

  return {
    getSnapshot: () => toasts,
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    show(toast: Omit<Toast, "id" | "open">): number {
      const id = nextId++;
      const next = [{ ...toast, id, open: true }, ...toasts];
      for (const dropped of next.slice(TOAST_LIMIT)) forget(dropped.id);
      set(next.slice(0, TOAST_LIMIT));
      return id;
    },
    dismiss(id: number) {
      if (!toasts.some((toast) => toast.id === id && toast.open)) return;
      set(toasts.map((toast) => (toast.id === id ? { ...toast, open: false } : toast)));
      scheduleRemoval(id);
    },
  };
}

export type ToastStore = ReturnType<typeof createToastStore>;
