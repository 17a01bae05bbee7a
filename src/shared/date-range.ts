import { z } from "zod";
import "./validation";

/*
 * Every date a request carries falls in the years 1900 to 2200: earlier or later is a typing
 * mistake (0226 for 2026), and PostgreSQL's dates stop short of year 0. The range is checked here,
 * in the schemas the routes and the forms share, before anything reaches the database.
 */
export const EARLIEST_YEAR = 1900;
export const LATEST_YEAR = 2200;

/** Whether a year is one a request's date may fall in. */
export const isYearInRange = (year: number) => year >= EARLIEST_YEAR && year <= LATEST_YEAR;

/**
 * A civil date (YYYY-MM-DD: no time, no time zone) of the years 1900-2200, named `name` in its
 * messages. Whether the day exists (30 February) is each caller's to say, with the day in its message.
 */
export const civilDateSchema = (name: string) => {
  const format = `${name} must be a date written YYYY-MM-DD`;
  return z
    .string({
      error: (issue) => (issue.input === undefined ? `${name} is required: a date written YYYY-MM-DD` : format),
    })
    .regex(/^\d{4}-\d{2}-\d{2}$/, format)
    .refine(
      (date) => isYearInRange(Number(date.slice(0, 4))),
      `${name} must be a day of the years ${EARLIEST_YEAR} to ${LATEST_YEAR}`,
    )
    .meta({ format: "date" });
};

/**
 * An instant with its offset (one without would mean a different moment in each time zone) in the
 * years 1900-2200, named `label` in the range's message; `format` is the message for anything else.
 */
export const instantSchema = (label: string, format: string) =>
  z.iso.datetime({ offset: true, error: format }).refine((value) => {
    const year = new Date(value).getUTCFullYear();
    // Not an instant at all is the format check's message, not this one's.
    return Number.isNaN(year) || isYearInRange(year);
  }, `${label} must be between the years ${EARLIEST_YEAR} and ${LATEST_YEAR}`);
