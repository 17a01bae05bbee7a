import { cva, type VariantProps } from "class-variance-authority";
import { X } from "lucide-react";
import { Dialog as SheetPrimitive } from "radix-ui";
import type { ComponentProps } from "react";
import { cn } from "../../lib/cn";
import { Dialog, overlayClasses } from "./dialog";

/**
 * A panel that slides in from a screen edge (the app's navigation below the md breakpoint). It is a
 * dialog, so Back closes it too.
 */
export const Sheet = Dialog;
export const SheetTrigger = SheetPrimitive.Trigger;
export const SheetClose = SheetPrimitive.Close;
export const SheetTitle = SheetPrimitive.Title;
export const SheetDescription = SheetPrimitive.Description;

const sheetVariants = cva(
  "fixed inset-y-0 z-50 flex h-full w-72 max-w-[85vw] flex-col bg-card shadow-lg outline-none wrap-anywhere",
  {
    variants: {
      side: {
        left: "left-0 border-r data-[state=open]:animate-slide-in-left",
        right: "right-0 border-l data-[state=open]:animate-slide-in-right",
      },
    },
    defaultVariants: { side: "left" },
  },
);

export function SheetContent({
  className,
  side,
  children,
  ...props
}: ComponentProps<typeof SheetPrimitive.Content> & VariantProps<typeof sheetVariants>) {
  return (
    <SheetPrimitive.Portal>
      <SheetPrimitive.Overlay className={overlayClasses} />
      <SheetPrimitive.Content className={cn(sheetVariants({ side }), className)} {...props}>
        {children}
        <SheetPrimitive.Close className="absolute top-4 right-4 rounded-sm p-1 text-muted-foreground outline-none transition-colors hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring">
          <X className="size-4" aria-hidden="true" />
          <span className="sr-only">Close menu</span>
        </SheetPrimitive.Close>
      </SheetPrimitive.Content>
    </SheetPrimitive.Portal>
  );
}
