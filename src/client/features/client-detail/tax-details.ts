import { type ClientDetail, entityTypeLabels, taxJurisdictionLabels } from "../../../shared/clients";

/*
 * A client's tax details (decision 0053) as the Edit Client dialog picks them and the Client
 * Information card shows them. The API keeps the fiscal year end as "MM-DD"; people read and
 * pick it as a day and a month's name ("30 June").
 */

export const monthNames = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

/** Days of each month; February has 29, which stands for its last day (src/shared/clients.ts). */
const monthLengths = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The days a month (1..12) may end a fiscal year on. */
export function daysOfMonth(month: number): number {
  return monthLengths[month - 1] ?? 31;
}

/** The days to pick from in `month` (1..12): 1 to its last day; 1 to 31 before a month is picked. */
export function dayNumbers(month: number | undefined): number[] {
  return Array.from({ length: month ? daysOfMonth(month) : 31 }, (_, index) => index + 1);
}

/** "06-30" as { month: 6, day: 30 }; undefined for anything else. */
export function parseMonthDay(value: string | null | undefined): { month: number; day: number } | undefined {
  const match = /^(\d{2})-(\d{2})$/.exec(value ?? "");
  if (!match) return undefined;
  const month = Number(match[1]);
  const day = Number(match[2]);
  if (month < 1 || month > 12 || day < 1 || day > daysOfMonth(month)) return undefined;
  return { month, day };
}

/** { month: 6, day: 30 } as "06-30". */
export const monthDay = (month: number, day: number) =>
  `${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;

/**
 * The fiscal year end after picking `month`: with no day yet, the month's last day (where most
 * fiscal years end); a last day stays a last day (31 January to June: 30 June); any other day is
 * kept, up to the month's length.
 */
export function withMonth(current: string | null | undefined, month: number): string {
  const last = daysOfMonth(month);
  const was = parseMonthDay(current);
  if (!was || was.day === daysOfMonth(was.month)) return monthDay(month, last);
  return monthDay(month, Math.min(was.day, last));
}

/** "06-30" as "30 June"; null for no (or no readable) date. */
export function formatFiscalYearEnd(value: string | null | undefined): string | null {
  const date = parseMonthDay(value);
  return date ? `${date.day} ${monthNames[date.month - 1]}` : null;
}

/** The card's lines, each a label and its value; empty when nothing is set. */
export function taxDetailLines(
  client: Pick<ClientDetail, "fiscalYearEnd" | "entityType" | "jurisdiction" | "state">,
): { label: string; value: string }[] {
  const lines: { label: string; value: string }[] = [];
  const fiscalYearEnd = formatFiscalYearEnd(client.fiscalYearEnd);
  if (fiscalYearEnd) lines.push({ label: "Fiscal year end", value: fiscalYearEnd });
  if (client.entityType) lines.push({ label: "Entity type", value: entityTypeLabels[client.entityType] });
  if (client.jurisdiction) {
    const name = taxJurisdictionLabels[client.jurisdiction];
    const state = client.jurisdiction === "US" && client.state ? ` (${client.state})` : "";
    lines.push({ label: "Jurisdiction", value: `${name}${state}` });
  }
  return lines;
}
