import type { ReactNode } from "react";
import { brand } from "../../shared/brand";
import { cn } from "../lib/cn";
import { BrandMark } from "./brand-mark";

/**
 * The frame of the screens a visitor sees outside the app (signing in, its second step, setting one
 * up, an e-mail's unsubscribe page): the brand, the screen's heading and what it asks for, then the
 * screen's own content, centred on the page. `wide` makes room for a QR code beside its explanation.
 */
export function BrandFrame({
  title,
  description,
  wide = false,
  children,
}: {
  title: string;
  description: ReactNode;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-background px-4 py-12">
      <div className={cn("flex w-full flex-col gap-8", wide ? "max-w-lg" : "max-w-sm")}>
        <div className="flex flex-col items-center gap-6 text-center">
          <BrandMark />
          <div className="flex flex-col gap-1.5">
            <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
            <p className="text-sm text-muted-foreground">{description}</p>
          </div>
        </div>
        {children}
        <p className="text-center text-xs text-muted-foreground">
          © {new Date().getFullYear()} {brand.legalEntity}
        </p>
      </div>
    </main>
  );
}
