import fc from "fast-check";

/*
 * Values known to be wrong for a field by construction: each generator builds its values from the
 * rule it breaks (too long, blank, not an e-mail address, not a date...), and never asks a schema
 * or the server which values are bad. So a schema that wrongly accepts some of them fails the
 * tests that use them, instead of quietly shrinking what they try.
 */

/** A value that breaks one rule of a field, and the message the product gives for that rule. */
export type Bad = {
  value: unknown;
  /** The rule it breaks, in words, for the description of a failing case. */
  why: string;
  message: string;
  /** Where the message is expected, below the field: [] for the field itself, [2] for its third item. */
  at: (string | number)[];
};

/** One rule of a field: values known to break it, each with its message. */
export type Rule = { why: string; cases: fc.Arbitrary<Bad> };

/** The rule `why`, broken by every one of `values`, with `message` at `at` below the field. */
export const bad = (
  values: fc.Arbitrary<unknown>,
  why: string,
  message: string,
  at: (string | number)[] = [],
): Rule => ({
  why,
  cases: values.map((value) => ({ value, why, message, at })),
});

// ---------------------------------------------------------------------------------------------
// JSON values by kind.

export const jsonKinds = ["number", "boolean", "null", "string", "array", "object"] as const;
export type JsonKind = (typeof jsonKinds)[number];

/**
 * Small JSON values of one kind. Numbers are finite (NaN and Infinity would arrive as null), strings
 * printable ASCII, object keys plain words (no "__proto__", which the JSON parser refuses first).
 */
const valuesOfKind: Record<JsonKind, fc.Arbitrary<unknown>> = {
  number: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
  boolean: fc.boolean(),
  null: fc.constant(null),
  string: fc.string({ maxLength: 12 }),
  array: fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), fc.boolean()), { maxLength: 3 }),
  object: fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.oneof(fc.integer(), fc.string({ maxLength: 6 })), {
    maxKeys: 3,
  }),
};

/** JSON values of every kind except `excluded`, each with its kind. */
export const jsonOtherThan = (...excluded: JsonKind[]): fc.Arbitrary<{ kind: JsonKind; value: unknown }> =>
  fc.oneof(
    ...jsonKinds
      .filter((kind) => !excluded.includes(kind))
      .map((kind) => valuesOfKind[kind].map((value) => ({ kind, value }))),
  );

/** JSON values that are not text; `null` too unless the field may be null. */
export const notText = (options: { nullable?: boolean } = {}) =>
  jsonOtherThan("string", ...(options.nullable ? (["null"] as const) : [])).map(({ value }) => value);

/** JSON values that are not true or false, including the strings and numbers people mean as such. */
export const notABoolean = fc.oneof(
  fc.constantFrom("true", "false", "yes", "no", "on", "", "1", "0", 0, 1, null, [true], { value: true }),
  jsonOtherThan("boolean").map(({ value }) => value),
);

// ---------------------------------------------------------------------------------------------
// Text.

/** Inserts `piece` strictly inside `value`, so trimming cannot remove it. */
export const insertInside = (value: string, piece: string, at: number) => {
  const position = 1 + (at % Math.max(1, value.length - 1));
  return value.slice(0, position) + piece + value.slice(position);
};

/** Whitespace that String.prototype.trim removes (spaces, tabs, newlines, no-break, ideographic, BOM). */
export const trimmableWhitespace = [" ", "\t", "\n", "\r", "\u00a0", "\u2003", "\u3000", "\ufeff"] as const;

/** "" or whitespace only: nothing is left once trimmed. */
export const blank = fc.array(fc.constantFrom(...trimmableWhitespace), { maxLength: 6 }).map((parts) => parts.join(""));

/**
 * Characters that are each one character however one counts (one grapheme; one code point except
 * the family emoji, which is five), and that trimming cannot remove: ASCII, accents, CJK, emoji,
 * zero-width space, right-to-left text.
 */
const oneCharacter = ["a", "Z", "7", "-", "é", "ß", "中", "😀", "👩‍👩‍👧", "\u200b", "م"] as const;

/**
 * Text of more than `max` characters, counting graphemes (so every other count is larger too):
 * mostly just over the limit, sometimes far over (at most 20,000 characters).
 */
export const longerThan = (max: number) =>
  fc
    .tuple(
      fc.constantFrom(...oneCharacter),
      fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: max + 1, max: max + 64 }) },
        { weight: 1, arbitrary: fc.integer({ min: max + 1, max: Math.max(max + 64, Math.min(20 * max, 20_000)) }) },
      ),
    )
    .map(([character, length]) => character.repeat(length));

/** Characters that are one UTF-16 unit each, so a count of them is the largest count of the text. */
const singleUnitCharacter = fc.oneof(
  fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }),
  fc.constantFrom("é", "ß", "中", "م", "\u00a0", "\u200b"),
);

/** Text of fewer than `min` characters (however counted); kept as is, for fields that do not trim. */
export const shorterThan = (min: number) =>
  fc.array(singleUnitCharacter, { maxLength: min - 1 }).map((parts) => parts.join(""));

/** Fewer than `min` characters once trimmed, padded with whitespace that trimming removes. */
export const shorterThanOnceTrimmed = (min: number) =>
  fc.tuple(blank, shorterThan(min), blank).map(([before, core, after]) => before + core.trim() + after);

/** `valid` with one of `characters` inserted somewhere inside it. */
export const withCharacterInside = (valid: string, characters: readonly string[]) =>
  fc.tuple(fc.constantFrom(...characters), fc.nat()).map(([character, at]) => insertInside(valid, character, at));

/**
 * Strings not in `allowed`: near misses (case, surrounding space, zero-width, dash for underscore,
 * plural, truncated), common wrong guesses, and arbitrary text.
 */
export const notOneOf = (allowed: readonly string[]) =>
  fc
    .oneof(
      fc
        .constantFrom(...allowed)
        .chain((value) =>
          fc.constantFrom(
            value.toUpperCase(),
            (value[0]?.toUpperCase() ?? "") + value.slice(1),
            `${value} `,
            ` ${value}`,
            `${value}\u200b`,
            value.replace(/_/g, "-"),
            value.replace(/_/g, ""),
            `${value}s`,
            value.slice(0, -1),
          ),
        ),
      fc.constantFrom(
        "",
        "free",
        "premium",
        "root",
        "owner",
        "superuser",
        "closed",
        "urgent",
        "null",
        "undefined",
        "*",
      ),
      fc.string({ maxLength: 20 }),
      fc.string({ unit: "grapheme", maxLength: 10 }),
    )
    // By the rule itself (the value is not one of the list), and no NUL, which is refused before any field rule.
    .filter((value) => !allowed.includes(value) && !value.includes("\u0000"));

// ---------------------------------------------------------------------------------------------
// Identifiers, e-mail addresses, dates and time zones.

/** The 8-4-4-4-12 hexadecimal shape every uuid has: what does not have it is no id. */
const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Characters that have no place in a uuid, an e-mail address's local part or a time zone name. */
const strayCharacters = [" ", "\t", "\n", "😀", "\u200b", "\u202e", "<", ">", "(", ")", ",", ";", ":", '"', "\\", "@"];

/** Strings that are not a uuid: near misses of real ones, ids of other shapes, and arbitrary text. */
export const notAUuid = fc
  .oneof(
    fc
      .tuple(fc.uuid({ version: 4 }), fc.nat(), fc.constantFrom(...strayCharacters))
      .chain(([uuid, at, character]) =>
        fc.constantFrom(
          uuid.slice(0, -1),
          `${uuid}0`,
          `${uuid.slice(0, 9)}g${uuid.slice(10)}`,
          `${uuid.slice(0, 9)}z${uuid.slice(10)}`,
          uuid.replace(/-/g, ""),
          `{${uuid}}`,
          `urn:uuid:${uuid}`,
          ` ${uuid}`,
          `${uuid}\n`,
          uuid.replace(/[0-9]/, "٣"),
          insertInside(uuid, character, at),
          uuid.slice(0, 8),
        ),
      ),
    fc.constantFrom("", "0", "-1", "42", "null", "undefined", "../", "1 OR 1=1", "00000000-0000-0000-0000-00000000000"),
    fc.string({ maxLength: 40 }),
    fc.string({ unit: "grapheme", maxLength: 20 }),
    longerThan(36),
  )
  // By the shape alone; and no NUL, which is refused before any field rule.
  .filter((value) => !uuidShape.test(value) && !value.includes("\u0000"));

/**
 * Strings that are no e-mail address: no "@", nothing before or after it, two of them, a character
 * that cannot stand unquoted in an address, misplaced dots or dashes, or more than 254 characters
 * (the longest address SMTP can carry). Blank ones only unless `blankAllowed` (an optional e-mail,
 * where "" means none). Not here, though just as wrong: a domain label ending in a dash
 * ("dana@example-.com"), which the shared e-mail checks accept today.
 */
export const notAnEmail = (options: { blankAllowed?: boolean } = {}) =>
  fc.oneof(
    fc.constantFrom(
      "plainaddress",
      "dana.whitfield.example.com",
      "@example.com",
      "dana@",
      "@",
      "dana@@example.com",
      "da@na@example.com",
      ".dana@example.com",
      "dana.@example.com",
      "dana..whitfield@example.com",
      "dana@example..com",
      "dana@.example.com",
      "dana@-example.com",
      "dana whitfield@example.com",
      "dana@exam ple.com",
      "dana@example.com, ann@example.com",
      "mailto:dana@example.com",
    ),
    ...(options.blankAllowed ? [] : [blank]),
    // No "@" at all (and not blank).
    fc.string({ minLength: 1, maxLength: 30 }).filter((value) => !value.includes("@") && value.trim() !== ""),
    // A character inside the local part that an unquoted address cannot hold.
    fc
      .tuple(
        fc.constantFrom(...strayCharacters.filter((c) => c !== "😀" && c !== "\u200b" && c !== "\u202e")),
        fc.nat(),
      )
      .map(([character, at]) => `${insertInside("dana.whitfield", character, at)}@example.com`),
    fc.integer({ min: 243, max: 400 }).map((length) => `${"a".repeat(length)}@example.com`),
    longerThan(254).map((value) => `${value}@example.com`),
  );

const pad = (value: number, width: number) => String(value).padStart(width, "0");

/** A valid ISO 8601 instant's parts; days up to 28, so every month has them. */
const dateTimeParts = fc.record({
  year: fc.integer({ min: 1900, max: 9999 }),
  month: fc.integer({ min: 1, max: 12 }),
  day: fc.integer({ min: 1, max: 28 }),
  hour: fc.integer({ min: 0, max: 23 }),
  minute: fc.integer({ min: 0, max: 59 }),
  second: fc.integer({ min: 0, max: 59 }),
  offset: fc.constantFrom("Z", "+00:00", "-05:00", "+05:30", "+14:00", "-12:00"),
});
type DateTimeParts = typeof dateTimeParts extends fc.Arbitrary<infer T> ? T : never;

const isoDate = (p: Pick<DateTimeParts, "year" | "month" | "day">) =>
  `${pad(p.year, 4)}-${pad(p.month, 2)}-${pad(p.day, 2)}`;
const isoTime = (p: Pick<DateTimeParts, "hour" | "minute" | "second">) =>
  `${pad(p.hour, 2)}:${pad(p.minute, 2)}:${pad(p.second, 2)}`;

/**
 * Strings that are not an ISO 8601 date and time with an offset: a date alone, a time without an
 * offset, a month, day, hour or minute that does not exist (February 30th, 2100-02-29, 25:00),
 * other formats, words.
 */
export const notAnIsoDateTime = fc.oneof(
  dateTimeParts.map((p) => isoDate(p)),
  dateTimeParts.map((p) => `${isoDate(p)}T${isoTime(p)}`),
  fc
    .tuple(dateTimeParts, fc.oneof(fc.constant(0), fc.integer({ min: 13, max: 99 })))
    .map(([p, month]) => `${isoDate({ ...p, month })}T${isoTime(p)}${p.offset}`),
  fc
    .tuple(dateTimeParts, fc.oneof(fc.constant(0), fc.integer({ min: 32, max: 99 })))
    .map(([p, day]) => `${isoDate({ ...p, day })}T${isoTime(p)}${p.offset}`),
  // The 31st of a 30-day month, February 30th and 31st, February 29th of a year that is not a leap year.
  fc
    .tuple(dateTimeParts, fc.constantFrom([4, 31], [6, 31], [9, 31], [11, 31], [2, 30], [2, 31]))
    .map(([p, [month, day]]) => `${isoDate({ ...p, month, day })}T${isoTime(p)}${p.offset}`),
  fc
    .tuple(dateTimeParts, fc.constantFrom(1900, 2019, 2025, 2026, 2100, 2200, 2300, 9999))
    .map(([p, year]) => `${isoDate({ ...p, year, month: 2, day: 29 })}T${isoTime(p)}${p.offset}`),
  fc
    .tuple(dateTimeParts, fc.integer({ min: 25, max: 99 }))
    .map(([p, hour]) => `${isoDate(p)}T${isoTime({ ...p, hour })}${p.offset}`),
  fc
    .tuple(dateTimeParts, fc.integer({ min: 60, max: 99 }))
    .map(([p, minute]) => `${isoDate(p)}T${isoTime({ ...p, minute })}${p.offset}`),
  fc
    .tuple(dateTimeParts, fc.constantFrom("/", "_", "-", "T T", ""))
    .map(([p, separator]) => `${isoDate(p)}${separator}${isoTime(p)}${p.offset}`),
  fc.constantFrom(
    "",
    "tomorrow",
    "next Friday",
    "12/31/2026",
    "31.12.2026 23:59",
    "2026",
    "2026-12",
    "1767225599999",
    "Thu, 31 Dec 2026 23:59:59 GMT",
    "2026-12-31T23:59:59+05:60",
  ),
);

/** Well-formed instants in the years 0000 to 1898: before 1900 in every time zone. */
export const isoDateTimeBefore1900 = fc
  .tuple(dateTimeParts, fc.integer({ min: 0, max: 1898 }))
  .map(([p, year]) => `${isoDate({ ...p, year })}T${isoTime(p)}${p.offset}`);

/** Well-formed instants in the years 2202 to 9999: after 2200 in every time zone. */
export const isoDateTimeAfter2200 = fc
  .tuple(dateTimeParts, fc.integer({ min: 2202, max: 9999 }))
  .map(([p, year]) => `${isoDate({ ...p, year })}T${isoTime(p)}${p.offset}`);

/**
 * Strings that name no time zone: no zone's name holds a space, "." or any character outside
 * letters, digits, "/", "_", "+" and "-"; plus invented places and offsets that are not zone names.
 */
export const notATimeZone = fc.oneof(
  fc.constantFrom(
    "",
    "Mars/Olympus",
    "America/Chicag0",
    "America/Atlantis",
    "UTC+5",
    "GMT+05:30",
    "Central Standard Time",
    "../etc/localtime",
  ),
  fc
    .tuple(
      fc.constantFrom("America/Chicago", "Europe/London", "Asia/Kolkata", "UTC"),
      fc.constantFrom(" ", ".", ",", "@", "!", "é", "😀", "\u200b", ":", "*", "\n"),
      fc.nat(),
    )
    .map(([zone, character, at]) => insertInside(zone, character, at)),
  fc.constantFrom("America/Chicago", "Europe/London").map((zone) => `${zone} `),
);

/** Text with NUL or a lone surrogate in it: never text a column can hold. */
export const nulInside = fc
  .tuple(fc.constantFrom("\u0000", "a\u0000b", "\u0000\u0000"), fc.nat())
  .map(([nul, at]) => insertInside("Some text", nul, at));
export const loneSurrogateInside = fc
  .tuple(fc.constantFrom("\ud800", "\udfff", "x\udbff"), fc.nat())
  .map(([surrogate, at]) => insertInside("Some text", surrogate, at));

// ---------------------------------------------------------------------------------------------
// Sign-in codes (decision 0044).

/** Characters that are neither an ASCII digit nor whitespace: letters that look like digits, digits of other scripts, marks. */
const notADigit = ["a", "O", "l", "-", ".", "+", "#", "٣", "６", "\u200b", "😀", "é"] as const;

/** `text` with one whitespace character (which a code may hold: it is dropped) somewhere, or none. */
const spacedOut = (text: fc.Arbitrary<string>) =>
  fc
    .tuple(text, fc.constantFrom("", ...trimmableWhitespace), fc.nat())
    .map(([value, space, at]) => (space === "" ? value : insertInside(value, space, at)));

/** `valid` with the character at some position replaced by one of `characters`, or one of them inserted. */
const withOneCharacterWrong = (valid: fc.Arbitrary<string>, characters: readonly string[]) =>
  fc
    .tuple(valid, fc.constantFrom(...characters), fc.nat(), fc.boolean())
    .map(([value, character, at, replace]) =>
      replace
        ? value.slice(0, at % value.length) + character + value.slice((at % value.length) + 1)
        : insertInside(value, character, at),
    );

/**
 * Strings that are no authenticator code (six ASCII digits, whitespace anywhere dropped): fewer or
 * more digits, or a character among them that is neither a digit nor whitespace.
 */
export const notASixDigitCode = fc.oneof(
  spacedOut(fc.stringMatching(/^[0-9]{0,5}$/)),
  spacedOut(fc.stringMatching(/^[0-9]{7,14}$/)),
  withOneCharacterWrong(fc.stringMatching(/^[0-9]{6}$/), notADigit),
);

/** Characters outside base32 (a-z, 2-7, in either case) that are neither a dash nor whitespace. */
const notBase32 = ["0", "1", "8", "9", "_", ".", "+", "/", "=", "é", "ß", "😀", "\u200b"] as const;

/**
 * Strings that are no recovery code (16 characters of base32, a-z and 2-7 in either case, dashes
 * and whitespace anywhere dropped): fewer or more of them, or a character outside base32 among them.
 */
export const notARecoveryCode = fc.oneof(
  spacedOut(fc.stringMatching(/^[A-Za-z2-7]{0,15}$/)),
  spacedOut(fc.stringMatching(/^[A-Za-z2-7]{17,30}$/)),
  fc.stringMatching(/^[a-z2-7]{4}(-[a-z2-7]{4}){2}$/),
  withOneCharacterWrong(fc.stringMatching(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/), notBase32),
);

// ---------------------------------------------------------------------------------------------
// Passkey answers (WebAuthn's JSON: bytes as base64url text).

/** Characters outside base64url's alphabet (A-Z a-z 0-9 _ -): standard base64's, padding, spaces, other scripts. */
const notBase64urlCharacters = ["+", "/", "=", ".", " ", "\t", "\n", "%", "!", "~", "é", "ß", "中", "😀", "\u200b"];

/**
 * Strings that are no base64url (only A-Z a-z 0-9 _ -, no padding): one character outside that
 * alphabet among ones of it, and standard base64 with its padding.
 */
export const notBase64url = fc
  .oneof(
    withOneCharacterWrong(fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/), notBase64urlCharacters),
    fc.stringMatching(/^[A-Za-z0-9+/]{2,40}={1,2}$/),
  )
  // By the alphabet alone (padding and every other character are outside it).
  .filter((value) => !/^[A-Za-z0-9_-]*$/.test(value));

/**
 * Base64url of more than `max` characters (nothing but its alphabet, so only the length is wrong):
 * mostly just over the limit, sometimes far over (at most `max` + 4,096).
 */
export const base64urlLongerThan = (max: number) =>
  fc
    .tuple(
      fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/),
      fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: max + 1, max: max + 64 }) },
        { weight: 1, arbitrary: fc.integer({ min: max + 1, max: max + 4_096 }) },
      ),
    )
    .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length));
