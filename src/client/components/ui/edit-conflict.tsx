import { RefreshCw } from "lucide-react";
import { useRef, useState } from "react";
import type { DefaultValues, FieldValues, UseFormReturn } from "react-hook-form";
import { errorMessage, isConflict } from "../../lib/api";
import { changedValues } from "../../lib/changed-values";
import { Button } from "./button";
import { toast } from "./toaster";

/*
 * Editing a resource that someone else may change at the same time (docs/decisions/0030). The
 * form keeps the version and the values it was opened on, sends only the fields the person
 * changed, with the version (If-Match); when the server answers 412, the form says so and offers
 * to load the other person's version. Loading it keeps what this person typed: the fields they
 * changed keep their text, the others show the new values, and the next save is made against the
 * new version.
 */

type Stage = "editing" | "conflict" | "reloaded";

export function useEditConflict<
  TValues extends FieldValues,
  TContext,
  TTransformed,
  Resource extends { version: number },
>({
  resource,
  form,
  valuesOf,
  load,
}: {
  /** What is edited; undefined when the form creates something new (then there is no conflict). */
  resource: Resource | undefined;
  form: UseFormReturn<TValues, TContext, TTransformed>;
  /** The form's values for a version of the resource. */
  valuesOf: (resource: Resource) => TValues;
  /** Reads the resource as it is now (refreshing whatever screen shows it). */
  load: () => Promise<Resource>;
}) {
  const [version, setVersion] = useState(resource?.version);
  const [stage, setStage] = useState<Stage>("editing");
  const [loading, setLoading] = useState(false);
  // The record's values the form was opened (or last reloaded) on: what "changed" is measured from.
  const opened = useRef<Record<string, unknown>>(resource ? valuesOf(resource) : {});
  const typedChanges = () => {
    const typed: Record<string, unknown> = form.getValues();
    return changedValues(typed, opened.current, typed);
  };

  return {
    /** The version the next change is made against: send it as If-Match (undefined for a create). */
    version,
    stage,
    loading,
    /** Of a validated submit, the fields the person changed: what an edit sends. */
    changes<Output extends object>(output: Output): Partial<Output> {
      return changedValues(output, opened.current, form.getValues());
    },
    /** For a failed save: true (and the notice shows) when someone else's change came first. */
    caught(error: unknown): boolean {
      if (!isConflict(error)) return false;
      setStage("conflict");
      return true;
    },
    /** For a form that stays open after saving: the next change is made against what was saved. */
    saved(latest: Resource) {
      opened.current = valuesOf(latest);
      form.reset(valuesOf(latest) as DefaultValues<TValues>);
      setVersion(latest.version);
      setStage("editing");
    },
    async reload() {
      setLoading(true);
      try {
        const latest = await load();
        const typed = typedChanges();
        opened.current = valuesOf(latest);
        form.reset({ ...opened.current, ...typed } as DefaultValues<TValues>);
        setVersion(latest.version);
        setStage("reloaded");
      } catch (error) {
        toast.error("Could not load their version", { description: errorMessage(error, "Please try again.") });
      } finally {
        setLoading(false);
      }
    },
  };
}

/**
 * What the form says after a 412, with the way forward; after the reload, that their version is
 * in and the person's own changes are kept. Nothing while editing normally.
 */
export function EditConflictNotice({
  conflict,
  entity,
}: {
  conflict: ReturnType<typeof useEditConflict>;
  /** What is being edited, as the sentence names it: "client", "contact", "task". */
  entity: string;
}) {
  if (conflict.stage === "editing") return null;
  if (conflict.stage === "reloaded") {
    return (
      <div
        role="status"
        className="rounded-md border border-primary/30 bg-primary-subtle px-3 py-2 text-sm text-primary-subtle-foreground"
      >
        Their version of this {entity} is loaded. The fields you changed still hold what you typed: check them, then
        save again.
      </div>
    );
  }
  return (
    <div
      role="alert"
      className="flex flex-col gap-2 rounded-md border border-warning/40 bg-warning-subtle px-3 py-2 text-sm text-warning-subtle-foreground sm:flex-row sm:items-center sm:justify-between"
    >
      <p>Someone else changed this {entity} while you were editing it. Your changes have not been saved.</p>
      <Button
        variant="outline"
        size="sm"
        onClick={() => void conflict.reload()}
        disabled={conflict.loading}
        className="self-start sm:self-auto"
      >
        <RefreshCw aria-hidden="true" className={conflict.loading ? "animate-spin" : undefined} />
        Load their version
      </Button>
    </div>
  );
}
