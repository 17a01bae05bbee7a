import type { FieldPath, FieldValues, UseFormSetError } from "react-hook-form";
import { ApiError } from "./api";

/**
 * The fields a form shows the server's refusals under: the server's names for them, `*` for a list's
 * row ("closedDays.*.name"), or, where the form calls a field otherwise, server name -> form name
 * ({ password: "value" }).
 */
export type ServerFields = readonly string[] | Readonly<Record<string, string>>;

/** The form's name for where an issue lands: the longest of `fields` its path starts with, rows filled in. */
function fieldOf(path: readonly (string | number)[], fields: ServerFields): string | undefined {
  const entries = Array.isArray(fields)
    ? fields.map((field): [string, string] => [field, field])
    : Object.entries(fields);
  const matches = entries
    .map(([server, form]) => ({ server: server.split("."), form }))
    .filter(({ server }) =>
      server.every((part, index) =>
        part === "*" ? typeof path[index] === "number" : index < path.length && part === String(path[index]),
      ),
    );
  const best = matches.sort((one, other) => other.server.length - one.server.length)[0];
  return best?.form
    .split(".")
    .map((part, index) => (part === "*" ? String(path[index]) : part))
    .join(".");
}

/**
 * Shows a refused request's field problems (the `issues` of its 400, src/shared/api-error.ts) under
 * the form's fields, through react-hook-form's setError: the first issue for each field, as the
 * form's own resolver shows the first. Answers whether any issue was shown there, so a form can say
 * a refusal of nothing in particular above its buttons instead.
 */
export function showFieldIssues<Fields extends FieldValues>(
  setError: UseFormSetError<Fields>,
  error: unknown,
  fields: ServerFields,
): boolean {
  const issues = error instanceof ApiError ? (error.body?.issues ?? []) : [];
  const shown = new Set<string>();
  for (const issue of issues) {
    const field = fieldOf(issue.path, fields);
    if (field === undefined || shown.has(field)) continue;
    shown.add(field);
    setError(field as FieldPath<Fields>, { message: issue.message });
  }
  return shown.size > 0;
}
