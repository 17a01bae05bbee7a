/*
 * How the API's long lists (clients, tasks, audit events) page: keyset cursors, opaque to
 * callers. A page answers its rows as a JSON array; the cursor of the page after it travels in a
 * header, absent on the last page. Ask for the next page with `?cursor=` and the same filters.
 */

/** The response header carrying the next page's cursor. */
export const NEXT_CURSOR_HEADER = "x-next-cursor";

/** The response header carrying the whole count when a list answers only its first rows. */
export const TOTAL_COUNT_HEADER = "x-total-count";
