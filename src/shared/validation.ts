import { z } from "zod";

/*
 * The generic messages of S-VAL-27 ("Required", "Invalid email", "Invalid enum value"), for
 * every field whose schema gives no message of its own. Imported by each schema module, so the
 * forms and the routes say the same thing.
 */
z.config({
  customError: (issue) => {
    if (issue.code === "invalid_type" && issue.input === undefined) return "Required";
    if (issue.code === "invalid_value") return "Invalid enum value";
    if (issue.code === "invalid_format" && issue.format === "email") return "Invalid email";
    return undefined;
  },
});

const uuidText = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string is a uuid as text: checked before one reaches PostgreSQL, whose cast would fail. */
export const isUuidText = (value: string): boolean => uuidText.test(value);
