/** The SQLSTATE a statement failed with (drizzle wraps pg's error in its own), or undefined if it succeeded. */
export async function sqlFailure(work: () => PromiseLike<unknown>): Promise<string | undefined> {
  try {
    await work();
  } catch (error) {
    for (let current: unknown = error; current instanceof Error; current = current.cause) {
      const code = (current as { code?: string }).code;
      if (code) return code;
    }
    throw error;
  }
  return undefined;
}
