/** The ILIKE pattern for "contains `text`", ignoring case: % and _ in a search are plain text. */
export const containsPattern = (text: string): string =>
  `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
