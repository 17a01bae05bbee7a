/**
 * When two names of the same kind of record are "the same" for the firm's purposes (S-EDGE-04..05):
 * equal once surrounding spaces are dropped and case is ignored, so "Acme Ltd" and " acme ltd"
 * are one name. The forms warn about such a name before they create a second record with it.
 */
export const nameKey = (name: string): string => name.trim().toLowerCase();

export const sameName = (a: string, b: string): boolean => nameKey(a) === nameKey(b);
