import { zodResolver } from "@hookform/resolvers/zod";
import { KeyRound, Pencil, Smartphone, Trash2 } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { type Factor, type FactorKind, renameFactorSchema } from "../../../shared/mfa";
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
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog";
import { FormControl, FormField, FormItem, FormLabel, FormMessage } from "../../components/ui/form";
import { GuardedForm } from "../../components/ui/guarded-form";
import { Input } from "../../components/ui/input";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { useDateFormat } from "../../lib/firm";
import { showFieldIssues } from "../../lib/form-errors";
import { useRemoveFactor, useRenameFactor } from "./api";

export const factorKindLabels: Record<FactorKind, string> = { totp: "Authenticator app", passkey: "Passkey" };
const factorIcons = { totp: Smartphone, passkey: KeyRound } as const;

/**
 * The user's second factors, one row each: its name and kind, when it was added and last used, and
 * the two things to do with one, rename and remove. Removing the last one says what follows, and
 * where the firm requires a second step, that it cannot be removed before another is added.
 */
export function FactorList({ factors, requiredByFirm }: { factors: Factor[]; requiredByFirm: boolean }) {
  const [renaming, setRenaming] = useState<Factor>();
  const [removing, setRemoving] = useState<Factor>();
  const format = useDateFormat();

  return (
    <>
      <ul className="flex flex-col divide-y rounded-md border" aria-label="Your sign-in factors">
        {factors.map((factor) => {
          const Icon = factorIcons[factor.kind];
          return (
            <li key={factor.id} className="flex items-start gap-3 px-3 py-3" data-testid="factor">
              <Icon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              <div className="flex min-w-0 flex-1 flex-col gap-0.5">
                <span className="text-sm font-medium wrap-anywhere">{factor.name}</span>
                <span className="text-xs text-muted-foreground">
                  {factorKindLabels[factor.kind]} · Added {format(factor.createdAt)} ·{" "}
                  {factor.lastUsedAt ? `Last used ${format(factor.lastUsedAt)}` : "Not used yet"}
                </span>
              </div>
              <div className="-my-1 flex shrink-0 gap-1">
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-8"
                  aria-label={`Rename ${factor.name}`}
                  onClick={() => setRenaming(factor)}
                >
                  <Pencil aria-hidden="true" />
                </Button>
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-8 text-muted-foreground hover:text-destructive"
                  aria-label={`Remove ${factor.name}`}
                  onClick={() => setRemoving(factor)}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
      <RenameFactorDialog factor={renaming} onClose={() => setRenaming(undefined)} />
      <RemoveFactorDialog
        factor={removing}
        lastOne={factors.length === 1}
        requiredByFirm={requiredByFirm}
        onClose={() => setRemoving(undefined)}
      />
    </>
  );
}

type RenameFields = z.input<typeof renameFactorSchema>;

function RenameFactorDialog({ factor, onClose }: { factor: Factor | undefined; onClose: () => void }) {
  return (
    <Dialog open={factor !== undefined} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Rename {factor ? factorKindLabels[factor.kind].toLowerCase() : ""}</DialogTitle>
          <DialogDescription>
            A name to tell it apart, such as the{" "}
            {factor?.kind === "passkey" ? "device that keeps it" : "phone it is on"}.
          </DialogDescription>
        </DialogHeader>
        {factor && <RenameForm factor={factor} onClose={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function RenameForm({ factor, onClose }: { factor: Factor; onClose: () => void }) {
  const rename = useRenameFactor();
  const form = useForm<RenameFields, unknown, z.output<typeof renameFactorSchema>>({
    resolver: zodResolver(renameFactorSchema),
    defaultValues: { name: factor.name },
  });

  const submit = ({ name }: z.output<typeof renameFactorSchema>) =>
    rename.mutateAsync({ factorId: factor.id, name }).then(
      (renamed) => {
        toast.success("Renamed", { description: `It is now called ${renamed.name}.` });
        onClose();
      },
      (error: unknown) => {
        if (!showFieldIssues(form.setError, error, ["name"])) {
          toast.error("Failed to rename", { description: errorMessage(error, "Please try again.") });
        }
      },
    );

  return (
    <GuardedForm form={form} onValid={submit} className="flex flex-col gap-4">
      {(busy) => (
        <>
          <fieldset disabled={busy} className="flex min-w-0 flex-col gap-4">
            <FormField
              control={form.control}
              name="name"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Name</FormLabel>
                  <FormControl>
                    <Input autoComplete="off" {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
          </fieldset>
          <DialogFooter>
            <Button variant="outline" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? "Saving..." : "Save name"}
            </Button>
          </DialogFooter>
        </>
      )}
    </GuardedForm>
  );
}

function RemoveFactorDialog({
  factor,
  lastOne,
  requiredByFirm,
  onClose,
}: {
  factor: Factor | undefined;
  lastOne: boolean;
  requiredByFirm: boolean;
  onClose: () => void;
}) {
  const remove = useRemoveFactor();
  const onRemove = (target: Factor) =>
    remove.mutate(target.id, {
      onSuccess: () => toast.success("Removed", { description: `${target.name} no longer confirms your sign-ins.` }),
      onError: (error) => toast.error("Failed to remove", { description: errorMessage(error, "Please try again.") }),
      onSettled: onClose,
    });

  // The server keeps a firm that requires a second step from losing a user's last one.
  const blocked = lastOne && requiredByFirm;

  return (
    <AlertDialog open={factor !== undefined} onOpenChange={(open) => !open && !remove.isPending && onClose()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>
            {blocked ? `${factor?.name} is your only second step` : `Remove ${factor?.name}?`}
          </AlertDialogTitle>
          <AlertDialogDescription>
            {blocked
              ? "Your firm requires two-step sign-in. Add another authenticator app or passkey first, then you can remove this one."
              : lastOne
                ? "It is your only second step: your password alone will sign you in, and your recovery codes stop working."
                : factor?.kind === "passkey"
                  ? "It will no longer sign you in. Your other sign-in factors keep working."
                  : "Its codes will no longer sign you in. Your other sign-in factors keep working."}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={remove.isPending}>{blocked ? "Close" : "Cancel"}</AlertDialogCancel>
          {!blocked && (
            <Button variant="destructive" disabled={remove.isPending} onClick={() => factor && onRemove(factor)}>
              {remove.isPending ? "Removing..." : "Remove"}
            </Button>
          )}
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
