import type { AnchorHTMLAttributes, ReactNode } from "react";
import { brand } from "../shared/brand";

/* The few building blocks the public pages share; the site keeps its own, small ones (decision 0022). */

export const cx = (...classes: (string | false | null | undefined)[]) => classes.filter(Boolean).join(" ");

const linkVariants = {
  primary: "bg-primary text-primary-foreground shadow-sm hover:bg-primary-hover",
  secondary: "border border-input bg-card text-foreground hover:bg-muted",
  inverse: "bg-card text-primary-subtle-foreground shadow-sm hover:bg-primary-subtle",
} as const;

const linkSizes = {
  md: "min-h-10 px-4 text-sm",
  lg: "min-h-12 px-6 text-base",
} as const;

/** A link that looks like a button: every call to action on the public pages is a real link. */
export function ButtonLink({
  variant = "primary",
  size = "md",
  className,
  children,
  ...props
}: AnchorHTMLAttributes<HTMLAnchorElement> & {
  variant?: keyof typeof linkVariants;
  size?: keyof typeof linkSizes;
  children: ReactNode;
}) {
  return (
    <a
      {...props}
      className={cx(
        "inline-flex items-center justify-center gap-2 rounded-md font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
        linkVariants[variant],
        linkSizes[size],
        className,
      )}
    >
      {children}
    </a>
  );
}

/** The brand's mark: a rounded teal square with a check, as an inline SVG (no request). */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cx("size-8", className)}>
      <rect width="32" height="32" rx="8" className="fill-primary" />
      <path
        d={brand.markPath}
        fill="none"
        stroke="white"
        strokeWidth="2.4"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** A section's centred heading block: an eyebrow, the h2 and an introduction. */
export function SectionHeading({
  id,
  eyebrow,
  title,
  children,
}: {
  id: string;
  eyebrow?: string;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      {eyebrow && <p className="text-sm font-semibold tracking-wide text-primary uppercase">{eyebrow}</p>}
      <h2 id={id} className="mt-2 text-3xl font-bold tracking-tight text-balance sm:text-4xl">
        {title}
      </h2>
      {children && <p className="mt-4 text-lg text-pretty text-muted-foreground">{children}</p>}
    </div>
  );
}
