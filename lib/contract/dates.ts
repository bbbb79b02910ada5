import { z } from "zod";

// Calendar dates in query strings and bodies. A real date (2024-02-30 and 2024-13-45 are not) in
// the years 1970–9999: earlier dates hold no data of Anneal's, and year 0 or negative years break
// both JavaScript's Date arithmetic and PostgreSQL's date columns.

export const MIN_YEAR = 1970;
export const MAX_YEAR = 9999;

export const calendarDateSchema = z.iso
  .date({ error: "must be a real calendar date YYYY-MM-DD" })
  .refine((value) => {
    const year = Number(value.slice(0, 4));
    return year >= MIN_YEAR && year <= MAX_YEAR;
  }, `must be a date in the years ${MIN_YEAR}–${MAX_YEAR}`);

/** An instant: an ISO 8601 date-time with `Z` or an offset (one without is UTC), in the years
 *  1970–9999; parsed to a Date. */
export const instantSchema = z.iso
  .datetime({ offset: true, local: true, error: "must be an ISO 8601 date-time such as 2026-01-31T09:30:00Z" })
  .refine((value) => {
    const year = Number(value.slice(0, 4));
    return year >= MIN_YEAR && year <= MAX_YEAR;
  }, `must be a date-time in the years ${MIN_YEAR}–${MAX_YEAR}`)
  .transform((value) => new Date(/(Z|[+-]\d{2}:\d{2})$/.test(value) ? value : `${value}Z`));
