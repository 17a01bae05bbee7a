import type { ReactNode } from "react";
import { brand } from "../../../shared/brand";
import { BrandMark } from "../../components/brand-mark";
import { Button } from "../../components/ui/button";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { cn } from "../../lib/cn";
import { useSignOut } from "./api";

/**
 * The frame of the sign-in screens (the password, the second step, setting one up): the brand, the
 * screen's heading and what it asks for, then the screen's own content, centred on the page.
 * `wide` makes room for a QR code beside its explanation.
 */
export function SignInFrame({
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

/** The router state a screen sends a visitor back to /login with: what to tell them. */
export type SignInNotice = { notice: string };

/** Where a second step that timed out (or was never begun) leads: back to the password, saying why. */
export const signInExpired: SignInNotice = {
  notice: "Your sign-in timed out after 5 minutes. Please sign in again.",
};

/** The way out of a sign-in that waits for its second step: the pending sign-in ends, and /login shows. */
export function SignInAsSomeoneElse() {
  const signOut = useSignOut();
  return (
    <Button
      variant="link"
      className="self-center"
      disabled={signOut.isPending}
      onClick={() =>
        signOut.mutate(undefined, {
          onError: (error) => toast.error(errorMessage(error, "Sign out failed. Please try again.")),
        })
      }
    >
      Sign in as someone else
    </Button>
  );
}
