import { Slot } from "radix-ui";
import { type ComponentProps, createContext, useContext, useId } from "react";
import {
  Controller,
  type ControllerProps,
  type FieldPath,
  type FieldValues,
  FormProvider,
  useFormContext,
  useFormState,
} from "react-hook-form";
import { cn } from "../../lib/cn";
import { Label } from "./label";

/*
 * react-hook-form glue (shadcn's pattern): <Form {...form}> provides the form, <FormField> binds
 * one field, and FormLabel / FormControl / FormMessage wire the label, aria-invalid,
 * aria-describedby and the zod message of that field together.
 */
export const Form = FormProvider;

type FieldContextValue = { name: string };
const FieldContext = createContext<FieldContextValue | null>(null);
const ItemContext = createContext<{ id: string } | null>(null);

export function FormField<TValues extends FieldValues, TName extends FieldPath<TValues>>(
  props: ControllerProps<TValues, TName>,
) {
  return (
    <FieldContext.Provider value={{ name: props.name }}>
      <Controller {...props} />
    </FieldContext.Provider>
  );
}

function useFormField() {
  const field = useContext(FieldContext);
  const item = useContext(ItemContext);
  if (!field || !item) throw new Error("Form parts must sit inside <FormField> and <FormItem>");
  const { getFieldState } = useFormContext();
  const formState = useFormState({ name: field.name });
  const state = getFieldState(field.name, formState);
  return {
    name: field.name,
    controlId: `${item.id}-control`,
    descriptionId: `${item.id}-description`,
    messageId: `${item.id}-message`,
    error: state.error,
  };
}

export function FormItem({ className, ...props }: ComponentProps<"div">) {
  const id = useId();
  return (
    <ItemContext.Provider value={{ id }}>
      <div className={cn("grid gap-2", className)} {...props} />
    </ItemContext.Provider>
  );
}

export function FormLabel({ className, ...props }: ComponentProps<typeof Label>) {
  const { controlId, error } = useFormField();
  return <Label htmlFor={controlId} className={cn(error && "text-destructive", className)} {...props} />;
}

export function FormControl(props: ComponentProps<typeof Slot.Root>) {
  const { controlId, descriptionId, messageId, error } = useFormField();
  return (
    <Slot.Root
      id={controlId}
      aria-describedby={error ? `${descriptionId} ${messageId}` : descriptionId}
      aria-invalid={Boolean(error)}
      {...props}
    />
  );
}

export function FormDescription({ className, ...props }: ComponentProps<"p">) {
  const { descriptionId } = useFormField();
  return <p id={descriptionId} className={cn("text-xs text-muted-foreground", className)} {...props} />;
}

export function FormMessage({ className, children, ...props }: ComponentProps<"p">) {
  const { messageId, error } = useFormField();
  const body = error?.message ?? children;
  if (!body) return null;
  return (
    <p id={messageId} className={cn("text-xs font-medium text-destructive", className)} {...props}>
      {body}
    </p>
  );
}

/** A message about the whole form (a refused sign-in, say), announced to screen readers. */
export function FormAlert({ className, ...props }: ComponentProps<"div">) {
  return (
    <div
      role="alert"
      className={cn(
        "rounded-md border border-destructive/25 bg-destructive-subtle px-3 py-2 text-sm text-destructive-subtle-foreground",
        className,
      )}
      {...props}
    />
  );
}
