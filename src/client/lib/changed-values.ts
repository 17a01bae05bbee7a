/**
 * The fields a person changed in an edit form: those whose value as typed differs from the
 * record's value the form opened on. An edit sends only these (their validated values), so it
 * cannot overwrite a colleague's change to a field this person never touched.
 */
export function changedValues<Output extends object>(
  output: Output,
  opened: Record<string, unknown>,
  typed: Record<string, unknown>,
): Partial<Output> {
  return Object.fromEntries(
    Object.entries(output).filter(([key]) => !Object.is(opened[key], typed[key])),
  ) as Partial<Output>;
}
