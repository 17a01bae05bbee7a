/**
 * The fields a person changed in an edit form: those whose value as typed differs from the
 * record's value the form opened on. An edit sends only these (their validated values), so it
 * cannot overwrite a colleague's change to a field this person never touched. Values are compared
 * as data: a list of rows (a firm's closed days) is unchanged while every row holds what it held.
 */
export function changedValues<Output extends object>(
  output: Output,
  opened: Record<string, unknown>,
  typed: Record<string, unknown>,
): Partial<Output> {
  return Object.fromEntries(
    Object.entries(output).filter(([key]) => !sameValue(opened[key], typed[key])),
  ) as Partial<Output>;
}

/** Two form values hold the same data: equal primitives, or arrays and plain objects equal part by part. */
function sameValue(one: unknown, other: unknown): boolean {
  if (Object.is(one, other)) return true;
  if (Array.isArray(one) || Array.isArray(other)) {
    return (
      Array.isArray(one) &&
      Array.isArray(other) &&
      one.length === other.length &&
      one.every((item, index) => sameValue(item, other[index]))
    );
  }
  if (!isPlainObject(one) || !isPlainObject(other)) return false;
  const keys = Object.keys(one);
  return (
    keys.length === Object.keys(other).length && keys.every((key) => key in other && sameValue(one[key], other[key]))
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}
