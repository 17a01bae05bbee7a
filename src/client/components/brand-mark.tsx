import { brand } from "../../shared/brand";
import { cn } from "../lib/cn";

/** The product's mark and name, as the sidebar and the sign-in page show them. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <span className={cn("flex items-center gap-2.5 font-semibold tracking-tight text-foreground", className)}>
      <svg viewBox="0 0 32 32" className="size-7 shrink-0" aria-hidden="true">
        <rect width="32" height="32" rx="8" className="fill-primary" />
        <path
          d="M9 11h14M16 11v12M11.5 17.5c1.5 2 3 3 4.5 3s3-1 4.5-3"
          className="stroke-primary-foreground"
          strokeWidth="2.4"
          strokeLinecap="round"
          strokeLinejoin="round"
          fill="none"
        />
      </svg>
      <span className="text-base">{brand.name}</span>
    </span>
  );
}
