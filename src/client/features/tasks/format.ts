import { useQuery } from "@tanstack/react-query";
import type { Frequency } from "../../../shared/tasks";
import { firmQueryOptions } from "./api";

/**
 * Formats instants as dates in the firm's time zone: a due date is the last moment of a period
 * there (decision 0009), so in another zone it could read as the next day. Until the firm is
 * loaded, the browser's zone stands in.
 */
export function useDateFormat(): (iso: string | null, withTime?: boolean) => string {
  const { data: firm } = useQuery(firmQueryOptions());
  const date = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: firm?.timeZone });
  const dateTime = new Intl.DateTimeFormat("en-US", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: firm?.timeZone,
  });
  return (iso, withTime = false) => (iso ? (withTime ? dateTime : date).format(new Date(iso)) : "—");
}

/** S-CONST-29..30: template names are cut at 50 characters and descriptions at 100 on the cards. */
export const templateNameLimit = 50;
export const templateDescriptionLimit = 100;

/** The first `limit` characters and an ellipsis when the text is longer. */
export function truncate(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

/** S-TTPL-09: a recurring template reads "Every {frequency}" (e.g. "Every monthly"). */
export function everyText(frequency: Frequency): string {
  return `Every ${frequency}`;
}
