import { Toaster as SonnerToaster, toast as sonnerToast } from "sonner";

/**
 * Spec sections 4 and 9: one toast on screen, shown for 5 s; F8 moves focus to the toasts.
 * What sonner cannot be told (the 50 px swipe threshold, the removal delay) is in decision 0012.
 */
export function Toaster() {
  return (
    <SonnerToaster
      visibleToasts={1}
      duration={5000}
      hotkey={["F8"]}
      position="bottom-right"
      toastOptions={{
        classNames: {
          toast: "!rounded-lg !border-border !bg-card !text-card-foreground !shadow-lg !font-sans",
          description: "!text-muted-foreground",
          error: "!border-destructive/30 !bg-destructive-subtle !text-destructive-subtle-foreground",
          success: "!text-foreground [&_[data-icon]]:!text-success",
        },
      }}
    />
  );
}

type ToastOptions = { description?: string };

/**
 * The app's toasts. Each new one replaces the one on screen (spec section 4: "a new one replaces
 * the older"); sonner alone would queue the older one behind it and show it again later.
 */
export const toast = {
  success(title: string, options: ToastOptions = {}) {
    sonnerToast.dismiss();
    sonnerToast.success(title, options);
  },
  /** Destructive style (spec section 8: failures are shown as destructive toasts). */
  error(title: string, options: ToastOptions = {}) {
    sonnerToast.dismiss();
    sonnerToast.error(title, options);
  },
};
