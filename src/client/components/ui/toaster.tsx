import { CircleAlert, CircleCheck, X } from "lucide-react";
import { type PointerEvent, useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { cn } from "../../lib/cn";
import { createToastStore, SWIPE_THRESHOLD, TOAST_DURATION, TOAST_HOTKEY, type Toast } from "./toast-store";

/*
 * S-STATE-23, S-CONST-36..40: one toast at a time, 5 s on screen, swiped away past 50 px, F8 moves
 * focus to them, a dismissed one kept (hidden) for 1,000,000 ms. The constants and the queue are
 * in `toast-store.ts`. The toasts are not a dismissable layer (decision 0016): Escape closes the
 * dialog or menu a person is in, and closes a toast only when focus is on it.
 */
const store = createToastStore();

type ToastOptions = { description?: string };

/** The app's toasts. Each new one replaces the one on screen. */
export const toast = {
  success(title: string, options: ToastOptions = {}) {
    store.show({ title, description: options.description, variant: "success" });
  },
  /** Destructive style (failures are shown as destructive toasts, e.g. S-ERR-11). */
  error(title: string, options: ToastOptions = {}) {
    store.show({ title, description: options.description, variant: "destructive" });
  },
};

export function Toaster() {
  const toasts = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const region = useRef<HTMLElement>(null);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const pageHidden = usePageHidden();

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== TOAST_HOTKEY || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      event.preventDefault();
      const open = region.current?.querySelector<HTMLElement>("[data-app-toast][data-state=open]");
      (open ?? region.current)?.focus();
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);

  return (
    <section
      ref={region}
      aria-label={`Notifications (${TOAST_HOTKEY})`}
      aria-live="polite"
      aria-relevant="additions text"
      tabIndex={-1}
      data-toaster=""
      className="pointer-events-none fixed right-0 bottom-0 z-[100] w-full p-4 outline-none sm:max-w-sm"
      onPointerEnter={() => setHovered(true)}
      onPointerLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
      }}
    >
      <ol className="flex flex-col gap-2">
        {toasts.map((item) => (
          <ToastItem key={item.id} toast={item} paused={hovered || focused || pageHidden} />
        ))}
      </ol>
    </section>
  );
}

function ToastItem({ toast, paused }: { toast: Toast; paused: boolean }) {
  const onDismiss = useCallback(() => store.dismiss(toast.id), [toast.id]);
  const remaining = useRef(TOAST_DURATION);
  const swipe = useSwipeToDismiss(onDismiss);
  const running = toast.open && !paused && !swipe.active;

  // The 5 s run only while nobody is reading the toast: hovering, focusing or swiping it, or a
  // hidden tab, pauses them, and they resume with what was left.
  useEffect(() => {
    if (!running) return;
    const started = Date.now();
    const timer = setTimeout(onDismiss, remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current -= Date.now() - started;
    };
  }, [running, onDismiss]);

  const Icon = toast.variant === "destructive" ? CircleAlert : CircleCheck;
  return (
    <li
      data-app-toast=""
      data-type={toast.variant === "destructive" ? "error" : "success"}
      data-state={toast.open ? "open" : "closed"}
      hidden={!toast.open}
      aria-atomic="true"
      tabIndex={-1}
      onKeyDown={(event) => {
        if (event.key !== "Escape") return;
        event.stopPropagation();
        onDismiss();
      }}
      {...swipe.handlers}
      style={{ transform: swipe.offset ? `translateX(${swipe.offset}px)` : undefined }}
      className={cn(
        "pointer-events-auto relative flex w-full touch-pan-y select-none items-start gap-3 rounded-lg border p-4 pr-10 shadow-lg outline-none animate-slide-in-right focus-visible:ring-2 focus-visible:ring-ring",
        !swipe.active && "transition-transform duration-200",
        toast.variant === "destructive"
          ? "border-destructive/30 bg-destructive-subtle text-destructive-subtle-foreground"
          : "bg-card text-card-foreground",
      )}
    >
      <Icon
        className={cn("mt-0.5 size-4 shrink-0", toast.variant === "success" && "text-success")}
        aria-hidden="true"
      />
      <div className="grid gap-1">
        <p className="font-medium">{toast.title}</p>
        {toast.description && (
          <p className={cn(toast.variant === "success" && "text-muted-foreground")}>{toast.description}</p>
        )}
      </div>
      <button
        type="button"
        aria-label="Dismiss notification"
        onClick={onDismiss}
        onPointerDown={(event) => event.stopPropagation()}
        className="absolute top-3 right-3 rounded-sm p-1 opacity-70 outline-none transition-opacity hover:opacity-100 focus-visible:opacity-100 focus-visible:ring-2 focus-visible:ring-ring"
      >
        <X className="size-4" aria-hidden="true" />
      </button>
    </li>
  );
}

/** Dragging a toast to the right moves it; let go past `SWIPE_THRESHOLD` px and it is dismissed. */
function useSwipeToDismiss(onDismiss: () => void) {
  const start = useRef<number | null>(null);
  const [offset, setOffset] = useState(0);
  const [active, setActive] = useState(false);

  function end(event: PointerEvent<HTMLElement>, dismiss: boolean) {
    if (start.current === null) return;
    const delta = event.clientX - start.current;
    start.current = null;
    setActive(false);
    setOffset(0);
    if (dismiss && delta >= SWIPE_THRESHOLD) onDismiss();
  }

  return {
    offset,
    active,
    handlers: {
      onPointerDown(event: PointerEvent<HTMLElement>) {
        if (event.button !== 0) return;
        start.current = event.clientX;
        event.currentTarget.setPointerCapture(event.pointerId);
        setActive(true);
      },
      onPointerMove(event: PointerEvent<HTMLElement>) {
        if (start.current === null) return;
        setOffset(Math.max(0, event.clientX - start.current));
      },
      onPointerUp: (event: PointerEvent<HTMLElement>) => end(event, true),
      onPointerCancel: (event: PointerEvent<HTMLElement>) => end(event, false),
    },
  };
}

function usePageHidden() {
  return useSyncExternalStore(
    (listener) => {
      document.addEventListener("visibilitychange", listener);
      return () => document.removeEventListener("visibilitychange", listener);
    },
    () => document.visibilityState === "hidden",
  );
}
