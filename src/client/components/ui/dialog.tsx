import { X } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import type { ComponentProps, ReactNode } from "react";
import { cn } from "../../lib/cn";
import { CloseOnBack, useConfirmLeavingTypedData } from "./dialog-history";

/*
 * Radix traps focus inside the open dialog, closes it on Escape and returns focus to the trigger.
 * Back and Forward close it too (dialog-history.tsx), which is why a dialog is always controlled.
 */
export function Dialog({
  open,
  onOpenChange,
  ...props
}: Omit<ComponentProps<typeof DialogPrimitive.Root>, "open" | "onOpenChange" | "defaultOpen"> & {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <>
      <CloseOnBack open={open} onOpenChange={onOpenChange} />
      <DialogPrimitive.Root open={open} onOpenChange={onOpenChange} {...props} />
    </>
  );
}

export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

export const overlayClasses = "fixed inset-0 z-50 bg-overlay data-[state=open]:animate-fade-in";

/*
 * A panel as wide as the viewport less 1rem each side and at most 90% of its height (S-CNEW-03), in
 * dynamic viewport units so a phone's browser bars do not hide its foot. Any text in it may break a
 * word longer than a line (a 120-character name without a space), and its body's one column may not
 * grow past it (minmax(0, 1fr)), so nothing can push the panel or its buttons sideways. The body is
 * the container the footer's line asks about (styles.css).
 */
const panelFrameClasses =
  "fixed top-1/2 left-1/2 z-50 max-h-[90dvh] w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 rounded-xl border bg-card shadow-lg outline-none wrap-anywhere data-[state=open]:animate-zoom-in";
const panelBodyClasses = "grid grid-cols-[minmax(0,1fr)] gap-4 overflow-y-auto p-6 scroll-state-container";

/** A confirmation's panel: one box that scrolls when its content is taller than the viewport. */
export const panelClasses = `${panelFrameClasses} ${panelBodyClasses}`;

/*
 * The footer's buttons stay in view however far the content has scrolled: the footer, always the
 * last element, sticks to the bottom edge. Its negative margins take it over the p-6 padding, so what
 * scrolls under it is hidden and its bottom is the edge; a body with other padding sets the footer's
 * margins and offset to match. A line above it shows while content is hidden under it (styles.css).
 */
export const footerClasses =
  "sticky -bottom-6 -mx-6 -mb-6 flex flex-col-reverse gap-2 bg-card px-6 pt-2 pb-6 divider-while-content-below sm:flex-row sm:justify-end";

/**
 * A dialog's panel is a frame around a body that scrolls, so the close button, which sits on the
 * frame, stays in its corner however far the body scrolls. `className` styles the frame (its width),
 * `bodyClassName` the body (its padding, gap and layout).
 */
export function DialogContent({
  className,
  bodyClassName,
  children,
  showClose = true,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & { bodyClassName?: string; showClose?: boolean }) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className={overlayClasses} />
      <DialogPrimitive.Content
        className={cn(panelFrameClasses, "flex max-w-lg flex-col overflow-hidden", className)}
        {...props}
      >
        <DialogBody className={bodyClassName}>{children}</DialogBody>
        {showClose && (
          <DialogPrimitive.Close className="absolute top-4 right-4 rounded-sm bg-card p-1 text-muted-foreground outline-none transition-colors hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring">
            <X className="size-4" aria-hidden="true" />
            <span className="sr-only">Close</span>
          </DialogPrimitive.Close>
        )}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

/** Mounted only while the dialog is open, so what was typed is forgotten when it closes. */
function DialogBody({ className, children }: { className: string | undefined; children: ReactNode }) {
  const noteTyping = useConfirmLeavingTypedData();
  return (
    <div className={cn(panelBodyClasses, "relative min-h-0", className)} onInput={noteTyping}>
      {children}
    </div>
  );
}

export function DialogHeader({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("flex flex-col gap-1.5 pr-6", className)} {...props} />;
}

export function DialogFooter({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn(footerClasses, className)} {...props} />;
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn("text-lg font-semibold tracking-tight", className)} {...props} />;
}

export function DialogDescription({ className, ...props }: ComponentProps<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={cn("text-sm text-muted-foreground", className)} {...props} />;
}
