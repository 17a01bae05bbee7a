/** S-SHELL-14..15: the role with underscores shown as spaces; "Administrator" when there is none. */
export function roleDisplay(role: string | null | undefined): string {
  return role ? role.replaceAll("_", " ") : "Administrator";
}

/** The first letters of the first and last names ("Jane Doe" → "JD"); one name gives one letter. */
export function initials(fullName: string): string {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  const first = words[0]?.[0] ?? "";
  const last = words.length > 1 ? (words.at(-1)?.[0] ?? "") : "";
  return (first + last).toUpperCase() || "?";
}
