import { TriangleAlert } from "lucide-react";
import { type MouseEvent, type ReactNode, useEffect, useRef, useState } from "react";
import type { FieldPath, FieldValues, UseFormReturn } from "react-hook-form";
import { nameKey } from "../../../shared/names";
import { Button } from "./button";

/*
 * Creating a record whose name the firm already has (S-EDGE-04). The API creates whatever it is
 * sent, so the question is the form's: inside its guarded submit, before the create request,
 * `check(name)` asks whether the name is taken; if it is, the form shows the notice instead of
 * creating. "Create anyway" submits the same form again (same Idempotency-Key), and the check lets
 * that name through. Any edit of the name field clears the warning and the permission with it.
 */

type Warning<Match> = { name: string; matches: Match[] };

export function useDuplicateName<TValues extends FieldValues, TContext, TTransformed, Match>({
  form,
  field,
  find,
}: {
  form: UseFormReturn<TValues, TContext, TTransformed>;
  /** The name field: editing it clears the warning. */
  field: FieldPath<TValues>;
  /** The firm's records with this name (ignoring case and surrounding spaces). */
  find: (name: string) => Promise<Match[]>;
}) {
  const [warning, setWarning] = useState<Warning<Match> | null>(null);
  // The name "Create anyway" was pressed for, so the submit it starts goes ahead.
  const confirmed = useRef<string | null>(null);

  useEffect(() => {
    const subscription = form.watch((_values, { name }) => {
      if (name !== field) return;
      confirmed.current = null;
      setWarning(null);
    });
    return () => subscription.unsubscribe();
  }, [form, field]);

  return {
    warning,
    /**
     * For the guarded submit, before it creates: true when the create may go ahead (the name is
     * free, or the person chose "Create anyway" for it); false when the warning now shows.
     */
    async check(name: string): Promise<boolean> {
      if (confirmed.current === nameKey(name)) return true;
      const matches = await find(name);
      if (matches.length === 0) return true;
      setWarning({ name, matches });
      return false;
    },
    /** "Create anyway": the same form submits again, and this time creates. */
    confirm(event: MouseEvent<HTMLButtonElement>) {
      if (!warning) return;
      confirmed.current = nameKey(warning.name);
      event.currentTarget.form?.requestSubmit();
    },
    /** For a dialog that stays mounted between openings: the next opening starts without a warning. */
    reset() {
      confirmed.current = null;
      setWarning(null);
    },
  };
}

/**
 * The warning inside the form: what already has the name (the children say it and name the
 * records), the two ways on, and "Create anyway". It must sit inside the form it submits.
 */
export function DuplicateNameNotice({
  entity,
  onConfirm,
  children,
}: {
  /** What is being created, as the sentence names it: "client", "template". */
  entity: string;
  onConfirm: (event: MouseEvent<HTMLButtonElement>) => void;
  children: ReactNode;
}) {
  return (
    <div
      role="alert"
      className="flex gap-2 rounded-md border border-warning/40 bg-warning-subtle px-3 py-3 text-sm text-warning-subtle-foreground"
    >
      <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <div className="flex min-w-0 flex-col items-start gap-1">
        {children}
        <p>Create it anyway if this is a different {entity}, or change the name.</p>
        <Button type="button" variant="outline" size="sm" onClick={onConfirm} className="mt-2">
          Create anyway
        </Button>
      </div>
    </div>
  );
}
