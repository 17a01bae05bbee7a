import {
  type ComponentProps,
  createContext,
  type FormEvent,
  type ReactNode,
  useContext,
  useRef,
  useState,
} from "react";
import { flushSync } from "react-dom";
import type { FieldValues, UseFormReturn } from "react-hook-form";
import { Form } from "./form";

/*
 * Every form of the app submits through <GuardedForm>, the one place that makes a submit safe:
 *  - the first activation disables the form before the browser can deliver a second one: the
 *    busy state is flushed to the DOM synchronously inside the submit event, so a fast double click
 *    or a repeated Enter finds the submit button already disabled (and a ref refuses anything that
 *    still slips through) until the request has been answered;
 *  - each mount of the form (each opening of a dialog) has its own Idempotency-Key, handed to
 *    `onValid`, so the server creates at most one record for it even if a request is repeated.
 * The busy state reaches the fields as a render prop (`{(busy) => ...}`) or through
 * useFormBusy(): a <fieldset disabled={busy}> around the fields and the buttons.
 */

const BusyContext = createContext(false);

/** Whether the surrounding GuardedForm is submitting. */
export const useFormBusy = () => useContext(BusyContext);

export type Submission = {
  /** The Idempotency-Key of this opening of the form; one per mount, the same for a repeat. */
  idempotencyKey: string;
};

export function GuardedForm<TValues extends FieldValues, TContext, TTransformed>({
  form,
  onValid,
  onInvalid,
  children,
  ...props
}: {
  form: UseFormReturn<TValues, TContext, TTransformed>;
  /**
   * Called once per activation with the validated values; the form stays disabled until the
   * promise it returns settles. It reports its own failures (a toast, a conflict notice).
   */
  onValid: (values: TTransformed, submission: Submission) => unknown;
  /** Called instead when the values do not validate (the fields show why). */
  onInvalid?: () => void;
  children: ReactNode | ((busy: boolean) => ReactNode);
} & Omit<ComponentProps<"form">, "onSubmit" | "noValidate" | "children">) {
  const { busy, guard } = useSubmitGuard();
  const [idempotencyKey] = useState(() => crypto.randomUUID());

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void guard(() => form.handleSubmit((values) => onValid(values, { idempotencyKey }), onInvalid)(event));
  };

  return (
    <Form {...form}>
      <form noValidate onSubmit={onSubmit} aria-busy={busy || undefined} {...props}>
        <BusyContext.Provider value={busy}>
          {typeof children === "function" ? children(busy) : children}
        </BusyContext.Provider>
      </form>
    </Form>
  );
}

/**
 * The guard itself, for a form not built on react-hook-form (the payment step): `guard(run)` runs
 * `run` unless a run is already under way, and `busy` is true, in the DOM at once, until it settles.
 */
export function useSubmitGuard() {
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const guard = async (run: () => Promise<unknown>) => {
    if (running.current) return;
    running.current = true;
    flushSync(() => setBusy(true));
    try {
      await run();
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return { busy, guard };
}

/**
 * The same guard for actions outside a form (an Add button on each row of a list): `run(id, action)`
 * does nothing while an action for `id` is still running, and `busy` holds the running ids, flushed
 * to the DOM synchronously so the button is disabled before a second click can land.
 */
export function useGuardedActions() {
  const running = useRef(new Set<string>());
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set());
  const run = async (id: string, action: () => Promise<unknown>) => {
    if (running.current.has(id)) return;
    running.current.add(id);
    flushSync(() => setBusy(new Set(running.current)));
    try {
      await action();
    } finally {
      running.current.delete(id);
      setBusy(new Set(running.current));
    }
  };
  return { busy, run };
}
