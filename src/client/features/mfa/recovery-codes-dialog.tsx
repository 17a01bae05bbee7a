import { useQuery } from "@tanstack/react-query";
import { RecoveryCodes } from "../../components/recovery-codes";
import { Button } from "../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog";
import { currentUserQueryOptions } from "../auth/api";

/**
 * A new set of recovery codes, shown this once: after the first authenticator app or passkey is added, or
 * after "Make new codes". Closing it is the person's own choice, so a click outside does not.
 */
export function RecoveryCodesDialog({ codes, onClose }: { codes: readonly string[] | undefined; onClose: () => void }) {
  const { data: user } = useQuery(currentUserQueryOptions());
  return (
    <Dialog open={codes !== undefined} onOpenChange={(open) => !open && onClose()}>
      <DialogContent onInteractOutside={(event) => event.preventDefault()}>
        <DialogHeader>
          <DialogTitle>Save your recovery codes</DialogTitle>
          <DialogDescription>
            If you lose your phone or the device with your passkey, each code signs you in once instead. Keep them
            somewhere safe: they are shown only this once.
          </DialogDescription>
        </DialogHeader>
        {codes && user && <RecoveryCodes codes={codes} owner={{ username: user.username, firmName: user.firm.name }} />}
        <DialogFooter>
          <Button onClick={onClose}>I have saved them</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
