import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";

/** Where a page's back link leads, and what it says there ("Back to Settings"). */
export type Back = { to: string; label: string };

/** The link above a page that leads back to the page it belongs under. */
export function BackLink({ to, label }: Back) {
  return (
    <Link
      to={to}
      className="inline-flex w-fit items-center gap-1.5 rounded-md text-sm font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <ArrowLeft className="size-4" aria-hidden="true" />
      {label}
    </Link>
  );
}
