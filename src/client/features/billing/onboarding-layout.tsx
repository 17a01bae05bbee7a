import { Check } from "lucide-react";
import type { ReactNode } from "react";
import { brand } from "../../../shared/brand";
import { BrandMark } from "../../components/brand-mark";
import { cn } from "../../lib/cn";

const steps = ["Account", "Plan", "Payment"] as const;
export type OnboardingStep = 1 | 2 | 3;

/** The frame every onboarding screen shares: the mark, where the visitor is, the heading, the footer. */
export function OnboardingLayout({
  step,
  title,
  description,
  width = "narrow",
  icon,
  children,
}: {
  /** The step this screen is, or none on the success screen. */
  step?: OnboardingStep;
  title: string;
  description: ReactNode;
  width?: "narrow" | "wide";
  /** Shown above the heading (the success screen's check mark). */
  icon?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-screen flex-col bg-background text-base">
      <header className="border-b bg-card">
        <div className="mx-auto flex h-14 w-full max-w-5xl items-center justify-between gap-4 px-4 sm:px-6">
          <BrandMark />
          {step && <StepIndicator current={step} />}
        </div>
      </header>
      <main
        className={cn(
          "mx-auto flex w-full flex-1 flex-col gap-8 px-4 py-10 sm:px-6 sm:py-14",
          width === "wide" ? "max-w-5xl" : "max-w-xl",
        )}
      >
        <div className="flex flex-col items-center gap-2 text-center">
          {icon}
          {step && (
            <p className="text-xs font-semibold uppercase tracking-wider text-primary">
              Step {step} of {steps.length}
            </p>
          )}
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h1>
          <p className="text-sm text-muted-foreground sm:text-base">{description}</p>
        </div>
        {children}
      </main>
      <footer className="py-6 text-center text-xs text-muted-foreground">
        © {new Date().getFullYear()} {brand.legalEntity}
      </footer>
    </div>
  );
}

function StepIndicator({ current }: { current: OnboardingStep }) {
  return (
    <ol className="flex items-center gap-1.5 text-xs sm:gap-3" aria-label="Onboarding steps">
      {steps.map((label, index) => {
        const number = index + 1;
        const done = number < current;
        const active = number === current;
        return (
          <li key={label} className="flex items-center gap-1.5" aria-current={active ? "step" : undefined}>
            <span
              className={cn(
                "flex size-5 items-center justify-center rounded-full border text-[11px] font-semibold",
                done && "border-primary bg-primary text-primary-foreground",
                active && "border-primary text-primary",
                !done && !active && "border-border text-muted-foreground",
              )}
              aria-hidden="true"
            >
              {done ? <Check className="size-3" /> : number}
            </span>
            <span className={cn("hidden sm:inline", active ? "font-medium text-foreground" : "text-muted-foreground")}>
              {label}
            </span>
            <span className="sr-only">{done ? " (done)" : active ? " (current)" : ""}</span>
          </li>
        );
      })}
    </ol>
  );
}
