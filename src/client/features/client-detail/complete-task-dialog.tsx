import { zodResolver } from "@hookform/resolvers/zod";
import { Eraser } from "lucide-react";
import { useId, useRef } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { completeTaskSchema, type Task } from "../../../shared/tasks";
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
import { GuardedForm, type Submission } from "../../components/ui/guarded-form";
import { Input } from "../../components/ui/input";
import { SignaturePad, type SignaturePadHandle } from "../../components/ui/signature-pad";
import { toast } from "../../components/ui/toaster";
import { errorMessage } from "../../lib/api";
import { showFieldIssues } from "../../lib/form-errors";
import { useCompleteTask } from "./api";

/** The route's schema: "Please provide a signature" and "Name is required" (S-VAL-24..25). */
const completeFormSchema = completeTaskSchema.pick({ signature: true, printedName: true });
type CompleteFields = z.input<typeof completeFormSchema>;

/**
 * Signing a task off (the TCOMP requirements): a drawn signature and a printed name. The
 * server records who is signed in and when; the dialog refuses a blank pad or an empty name
 * before anything is sent.
 */
export function CompleteTaskDialog({
  task,
  onOpenChange,
}: {
  task: Task | undefined;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={task !== undefined} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-[30rem]">
        <DialogHeader>
          <DialogTitle>Complete Task</DialogTitle>
          <DialogDescription>
            Sign off “{task?.name}”. The date and time are recorded automatically with your signature.
          </DialogDescription>
        </DialogHeader>
        {/* Mounted with each opening: a new task starts with a clean pad and an empty name. */}
        {task && <CompleteForm task={task} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function CompleteForm({ task, onDone }: { task: Task; onDone: () => void }) {
  const pad = useRef<SignaturePadHandle>(null);
  const signatureLabelId = useId();
  const complete = useCompleteTask();
  const form = useForm<CompleteFields, unknown, z.output<typeof completeFormSchema>>({
    resolver: zodResolver(completeFormSchema),
    defaultValues: { signature: "", printedName: "" },
  });

  // One Idempotency-Key per opening: a Submit repeated from this dialog (a double click, a retry
  // after a lost answer) gets the first sign-off's answer again, so it shows success, never "already
  // completed".
  const send = ({ signature, printedName }: z.output<typeof completeFormSchema>, { idempotencyKey }: Submission) =>
    complete
      // The printed name goes as completedBy too, as it always did; the server takes the signer from the session.
      .mutateAsync({ taskId: task.id, input: { completedBy: printedName, signature, printedName }, idempotencyKey })
      .then(
        () => {
          toast.success("Task completed successfully!");
          onDone();
        },
        (error: unknown) => {
          toast.error("Failed to complete task", { description: errorMessage(error, "Please try again.") });
          showFieldIssues(form.setError, error, ["signature"]);
        },
      );

  // The pad is not a form input: each stroke (and Clear) puts its drawing into the field.
  const drawn = () => {
    form.setValue("signature", pad.current && !pad.current.isEmpty() ? pad.current.toDataURL() : "");
    form.clearErrors("signature");
  };

  return (
    <GuardedForm form={form} onValid={send}>
      {(busy) => (
        <fieldset disabled={busy} className="grid min-w-0 gap-4">
          <FormField
            control={form.control}
            name="signature"
            render={({ fieldState }) => (
              <FormItem>
                <div className="flex items-center justify-between gap-2">
                  <span id={signatureLabelId} className="text-sm font-medium">
                    Signature
                  </span>
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => {
                      pad.current?.clear();
                      form.setValue("signature", "");
                    }}
                  >
                    <Eraser aria-hidden="true" />
                    Clear
                  </Button>
                </div>
                <SignaturePad
                  ref={pad}
                  className={fieldState.error ? "border-destructive" : undefined}
                  role="img"
                  aria-labelledby={signatureLabelId}
                  onStrokeEnd={drawn}
                />
                <p className="text-xs text-muted-foreground">Sign with your mouse, finger or pen.</p>
                <FormMessage role="alert" />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="printedName"
            render={({ field }) => (
              <FormItem>
                <FormLabel>Print Name</FormLabel>
                <FormControl>
                  <Input autoComplete="name" placeholder="Your full name" {...field} />
                </FormControl>
                <FormMessage role="alert" />
              </FormItem>
            )}
          />
          <DialogFooter className="pt-2">
            <Button variant="outline" onClick={onDone}>
              Cancel
            </Button>
            <Button type="submit">{busy ? "Submitting..." : "Submit"}</Button>
          </DialogFooter>
        </fieldset>
      )}
    </GuardedForm>
  );
}
