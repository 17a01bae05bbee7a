import { Button } from "../../components/ui/button";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { useSignOut } from "./api";

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
