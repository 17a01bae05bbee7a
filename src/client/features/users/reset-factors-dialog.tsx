import type { UserSummary } from "../../../shared/users";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "../../components/ui/alert-dialog";
import { Button } from "../../components/ui/button";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { useResetFactors } from "../mfa/api";

/**
 * "Reset sign-in factors" (decision 0044), for someone who lost their phone and their recovery
 * codes: a super admin removes their factors, and they set up a new one when they next sign in.
 */
export function ResetFactorsDialog({ user, onClose }: { user: UserSummary | undefined; onClose: () => void }) {
  const reset = useResetFactors();
  const onReset = (target: UserSummary) =>
    reset.mutate(target.id, {
      onSuccess: () =>
        toast.success("Sign-in factors reset", {
          description: `${target.fullName} signs in with their password alone until they set up a new factor.`,
        }),
      onError: (error) =>
        toast.error("Failed to reset sign-in factors", { description: errorMessage(error, "Please try again.") }),
      onSettled: onClose,
    });

  return (
    <AlertDialog open={user !== undefined} onOpenChange={(open) => !open && !reset.isPending && onClose()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Reset {user?.fullName}'s sign-in factors?</AlertDialogTitle>
          <AlertDialogDescription>
            Their authenticator apps, passkeys and recovery codes stop working. Where your firm requires two-step
            sign-in, they set up a new factor the next time they sign in. Do this only when you are sure it is them
            asking, for example after they lost their phone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={reset.isPending}>Cancel</AlertDialogCancel>
          <Button variant="destructive" disabled={reset.isPending} onClick={() => user && onReset(user)}>
            {reset.isPending ? "Resetting..." : "Reset factors"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
