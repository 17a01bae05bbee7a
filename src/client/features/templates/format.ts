import type { Frequency } from "../../../shared/tasks";

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
