import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { CloudLightning, ExternalLink, TriangleAlert } from "lucide-react";
import { useId, useState } from "react";
import { useForm, useFormContext } from "react-hook-form";
import { z } from "zod";
import { formatCivilDate } from "../../../shared/dates";
import {
  type DisasterRelief,
  maxReliefNameLength,
  maxReliefSourceUrlLength,
  usStateCodes,
} from "../../../shared/due-dates";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Checkbox } from "../../components/ui/checkbox";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog";
import { FormAlert, FormControl, FormField, FormItem, FormLabel, FormMessage } from "../../components/ui/form";
import { GuardedForm, type Submission, useFormBusy } from "../../components/ui/guarded-form";
import { Input } from "../../components/ui/input";
import { Skeleton } from "../../components/ui/skeleton";
import { errorMessage } from "../../lib/api";
import { cn } from "../../lib/cn";
import { useDateFormat } from "../../lib/firm";
import { showFieldIssues } from "../../lib/form-errors";
import { disasterReliefsQueryOptions, dueDateRulesQueryOptions, useRecordDisasterRelief } from "./api";

/**
 * The firm's disaster reliefs (IRC 7508A), for those who may override a statutory date: each
 * relief's states, window and new day, and recording another. A relief moves open tasks the
 * moment it is recorded and cannot be changed afterwards, so the dialog says so before it is sent,
 * and the card says how many tasks moved.
 */
export function DisasterReliefCard() {
  const reliefs = useQuery(disasterReliefsQueryOptions());
  const [open, setOpen] = useState(false);
  const [tasksMoved, setTasksMoved] = useState<number>();
  return (
    <Card data-testid="disaster-relief">
      <CardHeader>
        <CardTitle>Disaster relief</CardTitle>
        <CardDescription>
          IRS postponements (IRC 7508A) for clients in affected states. Open tasks due in the window move to the new
          date at once.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {tasksMoved !== undefined && (
          <p
            role="status"
            className="rounded-md border border-success/30 bg-success-subtle px-3 py-2 text-sm text-success-subtle-foreground"
          >
            Recorded. {tasksMoved} open {tasksMoved === 1 ? "task" : "tasks"} moved.
          </p>
        )}
        {reliefs.data ? (
          reliefs.data.length > 0 ? (
            <ul aria-label="Disaster reliefs" className="flex flex-col gap-2">
              {reliefs.data.map((relief) => (
                <ReliefItem key={relief.id} relief={relief} />
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">No disaster relief recorded.</p>
          )
        ) : reliefs.isError ? (
          <p className="text-sm text-destructive">
            {errorMessage(reliefs.error, "The disaster reliefs could not be loaded.")}
          </p>
        ) : (
          <Skeleton className="h-20 w-full" aria-hidden="true" />
        )}
        <Button variant="outline" className="self-start" onClick={() => setOpen(true)}>
          <CloudLightning aria-hidden="true" />
          Record disaster relief
        </Button>
      </CardContent>
      <Dialog open={open} onOpenChange={setOpen}>
        {/* Wide enough for the states in six rows and the three dates in one, so the warning shows without scrolling. */}
        <DialogContent className="sm:max-w-xl">
          <DialogHeader>
            <DialogTitle>Record disaster relief</DialogTitle>
            <DialogDescription>
              An IRS postponement: deadlines from the first day to the last, for clients in the states chosen, fall due
              on the new date.
            </DialogDescription>
          </DialogHeader>
          {/* Mounted with each opening: empty, with a new Idempotency-Key. */}
          <ReliefForm
            onCancel={() => setOpen(false)}
            onRecorded={(moved) => {
              setOpen(false);
              setTasksMoved(moved);
            }}
          />
        </DialogContent>
      </Dialog>
    </Card>
  );
}

function ReliefItem({ relief }: { relief: DisasterRelief }) {
  const format = useDateFormat();
  const recorded = format(relief.createdAt);
  return (
    <li className="flex flex-col gap-1 rounded-md border px-3 py-2.5 text-sm wrap-anywhere">
      <a
        href={relief.sourceUrl}
        target="_blank"
        rel="noopener noreferrer"
        className="inline-flex items-start gap-1.5 self-start font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        {relief.name}
        <ExternalLink className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
      </a>
      <span>{relief.states.length === usStateCodes.length ? "Every state" : relief.states.join(", ")}</span>
      <CoveredRules ruleIds={relief.ruleIds} />
      {/* A narrow card breaks the line between its dates, never inside one. */}
      <span className="text-muted-foreground">
        Deadlines <span className="whitespace-nowrap">{formatCivilDate(relief.windowStart)}</span> –{" "}
        <span className="whitespace-nowrap">{formatCivilDate(relief.windowEnd)}</span>{" "}
        <span className="whitespace-nowrap">→ due {formatCivilDate(relief.newDueOn)}</span>
      </span>
      <span className="text-xs text-muted-foreground">
        {relief.createdBy ? `Recorded by ${relief.createdBy.fullName} on ${recorded}` : `Recorded on ${recorded}`}
      </span>
    </li>
  );
}

/** Which deadlines a relief postpones: every one, or the forms it names. */
function CoveredRules({ ruleIds }: { ruleIds: string[] | null }) {
  const rules = useQuery(dueDateRulesQueryOptions());
  if (ruleIds === null) return <span className="text-muted-foreground">Every federal deadline</span>;
  const names = ruleIds.map((id) => rules.data?.find((rule) => rule.id === id)?.name.split(":")[0] ?? id);
  return <span className="text-muted-foreground">Only {names.join(", ")}</span>;
}

const civilDate = (message: string) => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, message);

/*
 * The route's limits (disasterReliefInputSchema) in words for the person at the form, with the
 * order of the dates checked here too; the route's own messages name its fields.
 */
const reliefSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, "Give the relief a name, such as the IRS notice's title")
      .max(maxReliefNameLength, `Keep the name to ${maxReliefNameLength} characters`),
    states: z.array(z.string()).min(1, "Choose at least one state"),
    /** Empty for every federal deadline; else the rules whose deadlines the relief postpones. */
    ruleIds: z.array(z.string()),
    windowStart: civilDate("Choose the first deadline day the relief postpones"),
    windowEnd: civilDate("Choose the last deadline day the relief postpones"),
    newDueOn: civilDate("Choose the day the postponed deadlines fall due"),
    sourceUrl: z
      .url({ protocol: /^https$/, error: "Paste the announcement's address, starting https://" })
      .max(maxReliefSourceUrlLength, `Keep the address to ${maxReliefSourceUrlLength} characters`),
  })
  .refine((relief) => relief.windowEnd >= relief.windowStart, {
    message: "The last day must be on or after the first",
    path: ["windowEnd"],
  })
  .refine((relief) => relief.newDueOn > relief.windowEnd, {
    message: "The new due date must be after the last deadline day",
    path: ["newDueOn"],
  });
type ReliefFields = z.input<typeof reliefSchema>;
type ReliefOutput = z.output<typeof reliefSchema>;
const fieldNames = ["name", "states", "ruleIds", "windowStart", "windowEnd", "newDueOn", "sourceUrl"];

function ReliefForm({ onCancel, onRecorded }: { onCancel: () => void; onRecorded: (tasksMoved: number) => void }) {
  const record = useRecordDisasterRelief();
  const [failure, setFailure] = useState<string>();
  const form = useForm<ReliefFields, unknown, ReliefOutput>({
    resolver: zodResolver(reliefSchema),
    defaultValues: { name: "", states: [], ruleIds: [], windowStart: "", windowEnd: "", newDueOn: "", sourceUrl: "" },
  });

  const save = ({ ruleIds, ...relief }: ReliefOutput, { idempotencyKey }: Submission) => {
    setFailure(undefined);
    const input = ruleIds.length > 0 ? { ...relief, ruleIds } : relief;
    return record.mutateAsync({ input, idempotencyKey }).then(
      ({ tasksMoved }) => onRecorded(tasksMoved),
      (error: unknown) => {
        // A refused field shows its message under the field; anything else above the buttons.
        if (!showFieldIssues(form.setError, error, fieldNames)) {
          setFailure(errorMessage(error, "The relief could not be recorded. Please try again."));
        }
      },
    );
  };

  return (
    <GuardedForm form={form} onValid={save} aria-label="Record disaster relief">
      <ReliefFormFields failure={failure} onCancel={onCancel} />
    </GuardedForm>
  );
}

const dateFields = [
  { name: "windowStart", label: "Deadlines from" },
  { name: "windowEnd", label: "Deadlines to" },
  { name: "newDueOn", label: "New due date" },
] as const;

function ReliefFormFields({ failure, onCancel }: { failure: string | undefined; onCancel: () => void }) {
  const busy = useFormBusy();
  const form = useFormContext<ReliefFields>();
  return (
    <fieldset disabled={busy} className="grid gap-4">
      <FormField
        control={form.control}
        name="name"
        render={({ field }) => (
          <FormItem>
            <FormLabel>Name</FormLabel>
            <FormControl>
              <Input autoComplete="off" placeholder="Hurricane Delia, FL-2027-03" {...field} />
            </FormControl>
            <FormMessage />
          </FormItem>
        )}
      />
      <StatesField />
      <RulesField />
      <div className="grid gap-4 sm:grid-cols-3">
        {dateFields.map((date) => (
          <FormField
            key={date.name}
            control={form.control}
            name={date.name}
            render={({ field }) => (
              <FormItem>
                <FormLabel>{date.label}</FormLabel>
                <FormControl>
                  <Input type="date" {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
        ))}
      </div>
      <FormField
        control={form.control}
        name="sourceUrl"
        render={({ field }) => (
          <FormItem>
            <FormLabel>Announcement link</FormLabel>
            <FormControl>
              <Input type="url" inputMode="url" autoComplete="off" placeholder="https://www.irs.gov/..." {...field} />
            </FormControl>
            <FormMessage />
          </FormItem>
        )}
      />
      <p className="flex gap-2 rounded-md border border-warning/40 bg-warning-subtle px-3 py-2.5 text-sm text-warning-subtle-foreground">
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        This cannot be undone: a relief cannot be edited or deleted once recorded. Open tasks of clients in these states
        due in the window move to the new due date at once.
      </p>
      {failure && <FormAlert>{failure}</FormAlert>}
      <DialogFooter className="pt-2">
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit">{busy ? "Recording..." : "Record disaster relief"}</Button>
      </DialogFooter>
    </fieldset>
  );
}

/**
 * The states as a grid of their 51 codes to tick: on a phone as on a desk, every choice is in
 * sight and no code can be mistyped.
 */
function StatesField() {
  const form = useFormContext<ReliefFields>();
  const labelId = useId();
  return (
    <FormField
      control={form.control}
      name="states"
      render={({ field, fieldState }) => {
        const chosen = new Set(field.value);
        const toggle = (code: string, on: boolean) =>
          field.onChange(usStateCodes.filter((other) => (other === code ? on : chosen.has(other))));
        return (
          <FormItem>
            <div className="flex items-baseline justify-between gap-2">
              {/* A group has no one control for a <label> to point at: its heading names it. */}
              <span
                id={labelId}
                className={cn("text-sm font-medium leading-none", fieldState.error && "text-destructive")}
              >
                States
              </span>
              <span className="flex items-baseline gap-2 text-xs text-muted-foreground">
                {chosen.size === 0 ? "None chosen" : `${chosen.size} chosen`}
                <Button
                  type="button"
                  variant="link"
                  size="sm"
                  className="h-auto p-0 text-xs"
                  onClick={() => field.onChange(chosen.size === usStateCodes.length ? [] : [...usStateCodes])}
                >
                  {chosen.size === usStateCodes.length ? "Clear" : "All states"}
                </Button>
              </span>
            </div>
            <FormControl>
              <fieldset
                aria-labelledby={labelId}
                className="grid min-w-0 grid-cols-5 gap-x-1 gap-y-1 rounded-md border p-2 sm:grid-cols-9"
              >
                {usStateCodes.map((code) => (
                  <label
                    key={code}
                    htmlFor={`${labelId}-${code}`}
                    className="flex h-7 cursor-pointer items-center gap-1.5 rounded-sm px-1 font-mono text-sm hover:bg-accent"
                  >
                    <Checkbox
                      id={`${labelId}-${code}`}
                      checked={chosen.has(code)}
                      onCheckedChange={(checked) => toggle(code, checked === true)}
                      onBlur={field.onBlur}
                    />
                    {code}
                  </label>
                ))}
              </fieldset>
            </FormControl>
            <FormMessage />
          </FormItem>
        );
      }}
    />
  );
}

/**
 * Which deadlines the relief postpones: most reliefs postpone every federal deadline; some (the
 * 2021 filing season's) only certain forms, which are then ticked here.
 */
function RulesField() {
  const form = useFormContext<ReliefFields>();
  const rules = useQuery(dueDateRulesQueryOptions());
  const labelId = useId();
  const federal = (rules.data ?? []).filter((rule) => rule.jurisdiction === "US");
  return (
    <FormField
      control={form.control}
      name="ruleIds"
      render={({ field }) => {
        const chosen = new Set(field.value);
        const some = chosen.size > 0;
        return (
          <FormItem>
            <span id={labelId} className="text-sm font-medium leading-none">
              Deadlines covered
            </span>
            <FormControl>
              <fieldset aria-labelledby={labelId} className="flex min-w-0 flex-col gap-2">
                <label htmlFor={`${labelId}-some`} className="flex items-center gap-2 text-sm">
                  <Checkbox
                    id={`${labelId}-some`}
                    checked={some}
                    disabled={federal.length === 0}
                    onCheckedChange={(checked) => field.onChange(checked === true ? ["us-1040"] : [])}
                  />
                  Only some forms (otherwise every federal deadline)
                </label>
                {some && (
                  <div className="grid max-h-40 min-w-0 grid-cols-1 gap-1 overflow-y-auto rounded-md border p-2 sm:grid-cols-2">
                    {federal.map((rule) => (
                      <label
                        key={rule.id}
                        htmlFor={`${labelId}-${rule.id}`}
                        className="flex min-w-0 cursor-pointer items-center gap-1.5 rounded-sm px-1 py-0.5 text-sm hover:bg-accent"
                      >
                        <Checkbox
                          id={`${labelId}-${rule.id}`}
                          checked={chosen.has(rule.id)}
                          onCheckedChange={(checked) =>
                            field.onChange(
                              federal
                                .map((other) => other.id)
                                .filter((id) => (id === rule.id ? checked === true : chosen.has(id))),
                            )
                          }
                        />
                        <span className="truncate" title={rule.name}>
                          {rule.name.split(":")[0]}
                        </span>
                      </label>
                    ))}
                  </div>
                )}
              </fieldset>
            </FormControl>
            <FormMessage />
          </FormItem>
        );
      }}
    />
  );
}
