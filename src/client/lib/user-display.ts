/** S-SHELL-14..15: the role with underscores shown as spaces; "Administrator" when there is none. */
export function roleDisplay(role: string | null | undefined): string {
  return role ? role.replaceAll("_", " ") : "Administrator";
}

/*
 * A "letter" as a person sees it, a grapheme cluster: an emoji, a flag or a letter with its
 * combining accent is several UTF-16 code units, and cutting one in half shows "\uFFFD".
 */
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

function firstGrapheme(word: string): string {
  const [first] = graphemes.segment(word);
  return first?.segment ?? "";
}

/** The first letters of the first and last names ("Jane Doe" → "JD"); one name gives one letter. */
export function initials(fullName: string): string {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  const first = firstGrapheme(words[0] ?? "");
  const last = words.length > 1 ? firstGrapheme(words.at(-1) ?? "") : "";
  return (first + last).toUpperCase() || "?";
}
