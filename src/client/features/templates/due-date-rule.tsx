import { useQuery } from "@tanstack/react-query";
import type { DueDateRuleSummary } from "../../../shared/due-dates";
import type { Frequency } from "../../../shared/tasks";
import { FormControl, FormDescription, FormItem, FormLabel, FormMessage } from "../../components/ui/form";
import {
  Select,
  SelectContent,
  SelectGroup,
  SelectItem,
  SelectLabel,
  SelectTrigger,
  SelectValue,
} from "../../components/ui/select";
import { dueDateRulesQueryOptions } from "../due-dates/api";

/*
 * A recurring template's statutory due-date rule (S-DUE-17..18): its tasks fall due on the rule's
 * date for each period instead of at the period's end. A rule gives one date per year, quarter or
 * month, so only a template of that frequency may follow it; GET /api/due-date-rules says which.
 */

/** What the select holds for "no rule" (a Radix select item cannot have an empty value). */
const noRule = "none";

const jurisdictions = [
  { id: "US", name: "United States" },
  { id: "UK", name: "United Kingdom" },
] as const;

/** "US — Form 1040: U.S. individual income tax return". */
export const ruleLabel = (rule: DueDateRuleSummary) => `${rule.jurisdiction} — ${rule.name}`;

type RuleFrequency = DueDateRuleSummary["frequency"];

/** The unit a rule of each frequency gives one date per, and the template it fits. */
const periodOf: Record<RuleFrequency, { unit: string; template: string; label: string }> = {
  annually: { unit: "year", template: "an annual", label: "Annually" },
  quarterly: { unit: "quarter", template: "a quarterly", label: "Quarterly" },
  monthly: { unit: "month", template: "a monthly", label: "Monthly" },
};
const ruleFrequencies = Object.keys(periodOf) as RuleFrequency[];

/** The muted line under the select: which rules the list holds, and where the others are. */
function hintFor(frequency: Frequency): string {
  if (!(frequency in periodOf)) {
    return `No rule gives one date per ${frequency === "daily" ? "day" : "week"}: choose Monthly, Quarterly or Annually to follow one.`;
  }
  const period = periodOf[frequency as RuleFrequency];
  const others = ruleFrequencies.filter((each) => each !== frequency).map((each) => periodOf[each].label);
  return `Only rules with one date per ${period.unit} fit ${period.template} template; choose ${others.join(" or ")} for the others.`;
}

/** The rules, loaded once for every template form and card. */
export const useDueDateRules = (enabled = true) => useQuery({ ...dueDateRulesQueryOptions(), enabled });

/**
 * Whether a template of `frequency` (null: one-time) may keep the rule `ruleId`. A rule not yet
 * loaded is kept: the template's own (and so a fitting) rule until the list says otherwise.
 */
export function ruleFits(
  ruleId: string | null | undefined,
  frequency: Frequency | null,
  rules: readonly DueDateRuleSummary[] | undefined,
): boolean {
  if (!ruleId) return true;
  if (frequency === null) return false;
  const rule = rules?.find((each) => each.id === ruleId);
  return !rules || !rule || rule.frequency === frequency;
}

/** The "Statutory due date" select of the template form, for a recurring template of `frequency`. */
export function DueDateRuleSelect({
  frequency,
  value,
  onChange,
  disabled,
}: {
  frequency: Frequency;
  value: string | null | undefined;
  onChange: (value: string | null) => void;
  disabled?: boolean;
}) {
  const { data: rules, isPending, isError } = useDueDateRules();
  const fitting = (rules ?? []).filter((rule) => rule.frequency === frequency);

  return (
    // min-w-0: a long rule name is cut short in the select rather than widening the dialog.
    <FormItem className="min-w-0">
      <FormLabel>Statutory due date</FormLabel>
      <Select
        value={value || noRule}
        onValueChange={(next) => onChange(next === noRule ? null : next)}
        disabled={disabled || fitting.length === 0}
      >
        <FormControl>
          <SelectTrigger className="min-w-0">
            <SelectValue />
          </SelectTrigger>
        </FormControl>
        {/* As wide as the select, long rule names wrapping, so it never runs off a phone's screen. */}
        <SelectContent className="max-w-(--radix-select-trigger-width)">
          <SelectItem value={noRule}>None: due at the end of each period</SelectItem>
          {jurisdictions.map((jurisdiction) => {
            const listed = fitting.filter((rule) => rule.jurisdiction === jurisdiction.id);
            if (listed.length === 0) return null;
            return (
              <SelectGroup key={jurisdiction.id}>
                <SelectLabel>{jurisdiction.name}</SelectLabel>
                {listed.map((rule) => (
                  <SelectItem key={rule.id} value={rule.id}>
                    {ruleLabel(rule)}
                  </SelectItem>
                ))}
              </SelectGroup>
            );
          })}
        </SelectContent>
      </Select>
      <FormDescription data-testid="due-date-rule-hint">
        {isPending
          ? "Loading the statutory rules…"
          : isError
            ? "The statutory rules could not be loaded."
            : hintFor(frequency)}
      </FormDescription>
      <FormMessage />
    </FormItem>
  );
}
