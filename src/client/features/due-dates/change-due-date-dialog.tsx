import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { formatCivilDate } from "../../../shared/dates";
import { maxDueDateReasonLength } from "../../../shared/due-dates";
import { Button } from "../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog";
import {
  FormAlert,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from "../../components/ui/form";
import { GuardedForm, type Submission } from "../../components/ui/guarded-form";
import { Input } from "../../components/ui/input";
import { Textarea } from "../../components/ui/textarea";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { showFieldIssues } from "../../lib/form-errors";
import { useChangeDueDate } from "./api";

/*
 * The route's limits (manualDueDateChangeSchema) in words for the person at the form: the route's
 * own messages name its fields ("dueOn must be ..."), which a person never sees here.
 */
const changeSchema = z.object({
  dueOn: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Choose the day the task is now due"),
  reason: z
    .string()
    .trim()
    .min(1, "Say why the date changes")
    .max(maxDueDateReasonLength, `Keep the reason to ${maxDueDateReasonLength} characters`),
});
type ChangeFields = z.input<typeof changeSchema>;
type ChangeOutput = z.output<typeof changeSchema>;

/**
 * "Change due date", for those who may override a statutory date: a new day and a reason, which
 * the task's date changes keep. It moves the day the task is due now, the extended day once an
 * extension is filed, so the form starts from that day.
 */
export function ChangeDueDate({ taskId, dueOn }: { taskId: string; dueOn: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
        Change due date
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="sm:max-w-md">
          <DialogHeader>
            <DialogTitle>Change due date</DialogTitle>
            <DialogDescription>
              The task is due on {formatCivilDate(dueOn)}. Choose the day it is due instead.
            </DialogDescription>
          </DialogHeader>
          {/* Mounted with each opening: it starts from the day the task is due now, with a new Idempotency-Key. */}
          <ChangeDueDateForm taskId={taskId} dueOn={dueOn} onDone={() => setOpen(false)} />
        </DialogContent>
      </Dialog>
    </>
  );
}

function ChangeDueDateForm({ taskId, dueOn, onDone }: { taskId: string; dueOn: string; onDone: () => void }) {
  const change = useChangeDueDate(taskId);
  const [failure, setFailure] = useState<string>();
  const form = useForm<ChangeFields, unknown, ChangeOutput>({
    resolver: zodResolver(changeSchema),
    defaultValues: { dueOn, reason: "" },
  });

  const save = (input: ChangeOutput, { idempotencyKey }: Submission) => {
    setFailure(undefined);
    return change.mutateAsync({ input, idempotencyKey }).then(
      (answer) => {
        onDone();
        const now = answer.extendedDueOn ?? answer.dueOn;
        toast.success("Due date changed", {
          description: now ? `The task is now due on ${formatCivilDate(now)}.` : undefined,
        });
      },
      (error: unknown) => {
        // A refused field shows its message under the field; anything else above the buttons.
        if (!showFieldIssues(form.setError, error, ["dueOn", "reason"])) {
          setFailure(errorMessage(error, "The due date could not be changed. Please try again."));
        }
      },
    );
  };

  return (
    <GuardedForm form={form} onValid={save} aria-label="Change due date">
      {(busy) => (
        <fieldset disabled={busy} className="grid gap-4">
          <FormField
            control={form.control}
            name="dueOn"
            render={({ field }) => (
              <FormItem>
                <FormLabel>New due date</FormLabel>
                <FormControl>
                  <Input type="date" className="sm:w-48" {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="reason"
            render={({ field }) => (
              <FormItem>
                <FormLabel>Reason</FormLabel>
                <FormControl>
                  <Textarea rows={3} maxLength={maxDueDateReasonLength} {...field} />
                </FormControl>
                <FormDescription>Say why the date changes; it is kept in the task's date changes.</FormDescription>
                <FormMessage />
              </FormItem>
            )}
          />
          {failure && <FormAlert>{failure}</FormAlert>}
          <DialogFooter className="pt-2">
            <Button variant="outline" onClick={onDone}>
              Cancel
            </Button>
            <Button type="submit">{busy ? "Changing..." : "Change due date"}</Button>
          </DialogFooter>
        </fieldset>
      )}
    </GuardedForm>
  );
}
