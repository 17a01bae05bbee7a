/*
 * What an update really changes. A form may send a field with the value it already has, and an
 * update that changes nothing must write nothing: no new version, no audit event.
 */

const same = (a: unknown, b: unknown): boolean =>
  a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b;

/** The fields of `input` that are given (not undefined) and differ from the row as it is. */
export function changedFields<Row extends object, Input extends Partial<Row>>(
  before: Row,
  input: Input,
): Partial<Input> {
  return Object.fromEntries(
    Object.entries(input).filter(
      ([key, value]) => value !== undefined && !same(value, (before as Record<string, unknown>)[key]),
    ),
  ) as Partial<Input>;
}

/** The row's values of the changed fields, for an audit event's `before`. */
export function previousValues<Row extends object>(before: Row, changes: object): Record<string, unknown> {
  return Object.fromEntries(Object.keys(changes).map((key) => [key, (before as Record<string, unknown>)[key] ?? null]));
}
