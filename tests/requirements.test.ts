import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * docs/requirements.md defines every requirement id (S-AREA-NN); test titles name the ids they
 * cover. This test keeps the two in step: every id a title names is listed, every listed id is
 * named by a title, and the file is well formed.
 *
 * How ids are read from titles. The test files are the Vitest files (src, tests and scripts:
 * *.test.ts) and the Playwright specs (e2e: *.spec.ts), found by walking those folders; this file
 * is left out, since its own examples are not requirements. A title is the first argument of a call
 * to it, test, describe or suite, written bare or with modifiers (it.skip, it.only, describe.each,
 * it.skipIf(cond), test.describe, test.describe.serial, ...). Calls such as test.use, test.slow,
 * test.step or the hooks carry no title, and neither does a method of another object (/x/.test(s)).
 * Comments never count. Within a title:
 *   - the ids written in its string and template literals count, wherever they stand in the
 *     argument (e.g. both branches of a condition);
 *   - `S-AREA-NN..MM` names the ids NN to MM of that area;
 *   - a name the title uses (a whole-argument `name`, or `${ids}` / `${row.what}` inside a
 *     template) counts the ids written in what the name is bound to in the same file: the
 *     initializer of its nearest earlier `const`/`let` declaration (destructuring included), or
 *     the array a `for (const … of array)` loop takes it from; names found there are followed in
 *     turn, a few levels deep. So a loop over `[{ ids: "S-GUARD-05", path: "/dashboard" }, …]`
 *     whose test is titled `${ids} …` names S-GUARD-05;
 *   - with it.each / test.for, when the title has a placeholder (%s, $name), the ids in the
 *     table's literals count too.
 * Anything else (say a helper whose parameter becomes the title) cannot be read, so a last check
 * insists that every id written in a test file's strings is one its titles name: an id the reader
 * cannot tie to a title fails there, and belongs literally in the title.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const requirementsPath = path.join(root, "docs", "requirements.md");
const thisFile = path
  .relative(root, fileURLToPath(import.meta.url))
  .split(path.sep)
  .join("/");

// ---------------------------------------------------------------------------------------------
// Reading TypeScript source: just enough of a tokenizer to tell code from comments, strings,
// template literals and regular expressions.

type Token =
  | { kind: "name" | "punct" | "other"; text: string; start: number }
  | { kind: "string"; text: string; start: number }
  | { kind: "template"; quasis: string[]; expressions: Token[][]; start: number };

const keywordsBeforeExpression = new Set([
  "return",
  "typeof",
  "case",
  "do",
  "else",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "yield",
  "await",
  "instanceof",
]);

function cooked(escaped: string | undefined): string {
  if (escaped === "n") return "\n";
  if (escaped === "t") return "\t";
  return escaped ?? "";
}

function regexAllowedAfter(previous: Token | undefined): boolean {
  if (!previous) return true;
  if (previous.kind === "punct") return !")]}".includes(previous.text);
  if (previous.kind === "name") return keywordsBeforeExpression.has(previous.text);
  return false;
}

function tokenize(source: string): Token[] {
  let pos = 0;

  const readString = (quote: string): Token => {
    const start = pos++;
    let text = "";
    while (pos < source.length) {
      const char = source[pos];
      if (char === "\\") {
        text += cooked(source[pos + 1]);
        pos += 2;
        continue;
      }
      pos++;
      if (char === quote || char === "\n") break;
      text += char;
    }
    return { kind: "string", text, start };
  };

  const readTemplate = (): Token => {
    const start = pos++;
    const quasis: string[] = [];
    const expressions: Token[][] = [];
    let quasi = "";
    while (pos < source.length) {
      const char = source[pos];
      if (char === "\\") {
        quasi += cooked(source[pos + 1]);
        pos += 2;
        continue;
      }
      if (char === "`") {
        pos++;
        break;
      }
      if (char === "$" && source[pos + 1] === "{") {
        quasis.push(quasi);
        quasi = "";
        pos += 2;
        expressions.push(lex(true));
        continue;
      }
      quasi += char;
      pos++;
    }
    quasis.push(quasi);
    return { kind: "template", quasis, expressions, start };
  };

  const skipRegex = () => {
    pos++;
    let inClass = false;
    while (pos < source.length) {
      const char = source[pos];
      if (char === "\\") {
        pos += 2;
        continue;
      }
      if (char === "\n") return;
      pos++;
      if (char === "[") inClass = true;
      else if (char === "]") inClass = false;
      else if (char === "/" && !inClass) break;
    }
    while (pos < source.length && /[a-z]/i.test(source[pos] ?? "")) pos++;
  };

  // Reads tokens up to the end, or, inside a template's ${…}, up to the brace that closes it.
  function lex(insidePlaceholder: boolean): Token[] {
    const tokens: Token[] = [];
    let depth = 0;
    while (pos < source.length) {
      const char = source[pos] ?? "";
      const start = pos;
      if (/\s/.test(char)) {
        pos++;
      } else if (source.startsWith("//", pos)) {
        const end = source.indexOf("\n", pos);
        pos = end < 0 ? source.length : end;
      } else if (source.startsWith("/*", pos)) {
        const end = source.indexOf("*/", pos + 2);
        pos = end < 0 ? source.length : end + 2;
      } else if (char === '"' || char === "'") {
        tokens.push(readString(char));
      } else if (char === "`") {
        tokens.push(readTemplate());
      } else if (/[A-Za-z_$]/.test(char)) {
        const name = /^[\w$]+/.exec(source.slice(pos, pos + 200))?.[0] ?? char;
        pos += name.length;
        tokens.push({ kind: "name", text: name, start });
      } else if (/[0-9]/.test(char)) {
        const number = /^[\w.]+/.exec(source.slice(pos, pos + 100))?.[0] ?? char;
        pos += number.length;
        tokens.push({ kind: "other", text: number, start });
      } else if (char === "/" && regexAllowedAfter(tokens.at(-1))) {
        skipRegex();
        tokens.push({ kind: "other", text: source.slice(start, pos), start });
      } else {
        pos++;
        if (insidePlaceholder && char === "{") depth++;
        if (insidePlaceholder && char === "}") {
          if (depth === 0) return tokens;
          depth--;
        }
        tokens.push({ kind: "punct", text: char, start });
      }
    }
    return tokens;
  }

  return lex(false);
}

// ---------------------------------------------------------------------------------------------
// Requirement ids in text.

const idPattern = /\bS-([A-Z]+)-(\d+)(?:\.\.(\d+))?/g;
const bareAreaPattern = /\bS-[A-Z]+\b(?!-\d)/g;

/** The ids a text names, runs (S-AREA-NN..MM) expanded, and what is wrong with how it names them. */
function idsIn(text: string): { ids: string[]; problems: string[] } {
  const ids: string[] = [];
  const problems: string[] = [];
  for (const match of text.matchAll(idPattern)) {
    const [whole, area, first = "", last] = match;
    if (last === undefined) {
      ids.push(`S-${area}-${first}`);
      continue;
    }
    const from = Number(first);
    const to = Number(last);
    if (to <= from) {
      problems.push(`"${whole}" is not a run of ids (the second number must be the larger)`);
      continue;
    }
    for (let number = from; number <= to; number++) ids.push(`S-${area}-${String(number).padStart(first.length, "0")}`);
  }
  for (const match of text.matchAll(bareAreaPattern)) {
    problems.push(`"${match[0]}" names an area, not an id (S-AREA-NN)`);
  }
  return { ids, problems };
}

// ---------------------------------------------------------------------------------------------
// Test titles.

const titleFunctions = new Set(["it", "test", "describe", "suite"]);
/** Members of it/test/describe whose calls carry no title. */
const untitledMembers = new Set([
  "use",
  "slow",
  "setTimeout",
  "info",
  "configure",
  "step",
  "extend",
  "expect",
  "beforeAll",
  "beforeEach",
  "afterAll",
  "afterEach",
]);
/** Members that take an argument list of their own before the title: it.each(table)(title, fn). */
const curriedMembers = new Set(["each", "for", "skipIf", "runIf"]);
const tablePlaceholder = /%[sdifjo#$%]|\$\w/;
const maxResolveDepth = 4;

type Title = { line: number; texts: string[]; ids: string[]; problems: string[] };

const isPunct = (token: Token | undefined, text: string) => token?.kind === "punct" && token.text === text;
const isName = (token: Token | undefined, text?: string) =>
  token?.kind === "name" && (text === undefined || token.text === text);

/** Index of the bracket closing the one at `open`, or -1. */
function closing(tokens: Token[], open: number): number {
  let depth = 0;
  for (let index = open; index < tokens.length; index++) {
    const token = tokens[index];
    if (token?.kind !== "punct") continue;
    if ("([{".includes(token.text)) depth++;
    else if (")]}".includes(token.text) && --depth === 0) return index;
  }
  return -1;
}

/** End (exclusive) of the expression starting at `from`: a `;` or `,` at its level, or a closing bracket. */
function expressionEnd(tokens: Token[], from: number): number {
  let depth = 0;
  for (let index = from; index < tokens.length; index++) {
    const token = tokens[index];
    if (token?.kind !== "punct") continue;
    if ("([{".includes(token.text)) depth++;
    else if (")]}".includes(token.text) && --depth < 0) return index;
    else if (depth === 0 && (token.text === ";" || token.text === ",")) return index;
  }
  return tokens.length;
}

type Binding = { start: number; range: [number, number] };

/** Where each name is bound by a declaration (`const x = …`, `const { x } = …`) or a `for (const x of …)` loop. */
function bindingsIn(tokens: Token[]): Map<string, Binding[]> {
  const bindings = new Map<string, Binding[]>();
  for (let index = 0; index < tokens.length; index++) {
    const keyword = tokens[index];
    if (!keyword || !(isName(keyword, "const") || isName(keyword, "let") || isName(keyword, "var"))) continue;
    const next = tokens[index + 1];
    let names: string[];
    let afterPattern: number;
    if (next?.kind === "name") {
      names = [next.text];
      afterPattern = index + 2;
    } else if (isPunct(next, "{") || isPunct(next, "[")) {
      const end = closing(tokens, index + 1);
      if (end < 0) continue;
      names = tokens.slice(index + 1, end).flatMap((token) => (token.kind === "name" ? [token.text] : []));
      afterPattern = end + 1;
    } else {
      continue;
    }
    let range: [number, number] | undefined;
    if (isPunct(tokens[afterPattern], "=")) {
      range = [afterPattern + 1, expressionEnd(tokens, afterPattern + 1)];
    } else if (
      isName(tokens[afterPattern], "of") &&
      isPunct(tokens[index - 1], "(") &&
      isName(tokens[index - 2], "for")
    ) {
      const loopEnd = closing(tokens, index - 1);
      if (loopEnd > afterPattern) range = [afterPattern + 1, loopEnd];
    }
    if (!range) continue;
    for (const name of names) bindings.set(name, [...(bindings.get(name) ?? []), { start: keyword.start, range }]);
  }
  return bindings;
}

/** What a name used at `offset` is bound to: its nearest earlier binding, else its first. */
function bindingOf(bindings: Map<string, Binding[]>, name: string, offset: number): Binding | undefined {
  const candidates = bindings.get(name) ?? [];
  return candidates.filter((binding) => binding.start < offset).at(-1) ?? candidates[0];
}

type SourceIndex = { tokens: Token[]; bindings: Map<string, Binding[]> };

/** The texts of the literals in tokens[from, to), following the names used there to what they are bound to. */
function textsOf(
  file: SourceIndex,
  tokens: Token[],
  from: number,
  to: number,
  depth: number,
  seen: Set<Binding>,
): string[] {
  const texts: string[] = [];
  for (let index = from; index < to; index++) {
    const token = tokens[index];
    if (!token) continue;
    if (token.kind === "string") texts.push(token.text);
    if (token.kind === "template") {
      texts.push(token.quasis.join(" "));
      for (const expression of token.expressions) {
        texts.push(...textsOf(file, expression, 0, expression.length, depth, seen));
      }
    }
    if (token.kind !== "name" || depth >= maxResolveDepth) continue;
    const previous = tokens[index - 1];
    const next = tokens[index + 1];
    const isMember = isPunct(previous, ".");
    const isKey = (isPunct(previous, "{") || isPunct(previous, ",")) && isPunct(next, ":");
    if (isMember || isKey || isPunct(next, "(")) continue;
    const binding = bindingOf(file.bindings, token.text, token.start);
    if (!binding || seen.has(binding)) continue;
    seen.add(binding);
    texts.push(...textsOf(file, file.tokens, binding.range[0], binding.range[1], depth + 1, seen));
  }
  return texts;
}

/** Every test title in a test file, with the ids it names. */
function readTitles(source: string): Title[] {
  const tokens = tokenize(source);
  const file: SourceIndex = { tokens, bindings: bindingsIn(tokens) };
  const lineOf = (offset: number) => source.slice(0, offset).split("\n").length;
  const titles: Title[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const head = tokens[index];
    if (head?.kind !== "name" || !titleFunctions.has(head.text)) continue;
    if (isPunct(tokens[index - 1], ".")) continue;
    const members: string[] = [];
    let table: [number, number] | undefined;
    let cursor = index + 1;
    let call: [number, number] | undefined;
    while (cursor < tokens.length) {
      const member = tokens[cursor + 1];
      if (isPunct(tokens[cursor], ".") && member?.kind === "name") {
        members.push(member.text);
        cursor += 2;
        continue;
      }
      if (!isPunct(tokens[cursor], "(")) break;
      const close = closing(tokens, cursor);
      if (close < 0) break;
      if (isPunct(tokens[close + 1], "(") && curriedMembers.has(members.at(-1) ?? "")) {
        if (members.at(-1) === "each" || members.at(-1) === "for") table = [cursor + 1, close];
        cursor = close + 1;
        continue;
      }
      call = [cursor + 1, close];
      break;
    }
    if (!call || members.some((member) => untitledMembers.has(member))) continue;
    const [argStart, callEnd] = call;
    const argEnd = Math.min(callEnd, expressionEnd(tokens, argStart));
    if (argEnd <= argStart) continue;
    const texts = textsOf(file, tokens, argStart, argEnd, 0, new Set());
    if (table && texts.some((text) => tablePlaceholder.test(text))) {
      texts.push(...textsOf(file, tokens, table[0], table[1], 0, new Set()));
    }
    const ids = new Set<string>();
    const problems = new Set<string>();
    for (const text of texts) {
      const found = idsIn(text);
      for (const id of found.ids) ids.add(id);
      for (const problem of found.problems) problems.add(problem);
    }
    titles.push({ line: lineOf(head.start), texts, ids: [...ids], problems: [...problems] });
  }
  return titles;
}

/** Every id written in a string or template literal of the source (comments left out). */
function idsWritten(source: string): Array<{ id: string; line: number }> {
  const found: Array<{ id: string; line: number }> = [];
  const lineOf = (offset: number) => source.slice(0, offset).split("\n").length;
  const visit = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.kind === "string") {
        for (const id of idsIn(token.text).ids) found.push({ id, line: lineOf(token.start) });
      }
      if (token.kind === "template") {
        for (const id of idsIn(token.quasis.join(" ")).ids) found.push({ id, line: lineOf(token.start) });
        for (const expression of token.expressions) visit(expression);
      }
    }
  };
  visit(tokenize(source));
  return found;
}

// ---------------------------------------------------------------------------------------------
// docs/requirements.md

type Catalogue = { ids: string[]; problems: string[] };

const areaHeading = /^## \S.* \(([A-Z]+)\)$/;
const requirementLine = /^- `S-([A-Z]+)-(\d{2,})` (\S.*)$/;

/** The ids the requirements file lists, and every line that breaks its format. */
function parseRequirements(markdown: string): Catalogue {
  const ids: string[] = [];
  const problems: string[] = [];
  const lineOfId = new Map<string, number>();
  let area: string | undefined;
  markdown.split("\n").forEach((raw, index) => {
    const line = raw.trimEnd();
    const number = index + 1;
    if (line.startsWith("## ")) {
      area = areaHeading.exec(line)?.[1];
      if (!area) problems.push(`line ${number}: an area heading reads "## Area name (AREA)": ${line}`);
      return;
    }
    const listsAnId = line.startsWith("- `S-") || /^[-*+]\s*`?S-[A-Z]+-\d/.test(line);
    if (!listsAnId && !(area && /^[-*+]\s/.test(line))) return;
    const match = requirementLine.exec(line);
    if (!match) {
      problems.push(`line ${number}: not "- \`S-AREA-NN\` text": ${line}`);
      return;
    }
    const [, lineArea, digits] = match;
    const id = `S-${lineArea}-${digits}`;
    if (!area) problems.push(`line ${number}: ${id} stands before any area heading`);
    else if (lineArea !== area) problems.push(`line ${number}: ${id} stands under the heading of area ${area}`);
    const earlier = lineOfId.get(id);
    if (earlier !== undefined) {
      problems.push(`line ${number}: ${id} is listed again (first on line ${earlier})`);
      return;
    }
    lineOfId.set(id, number);
    ids.push(id);
  });
  return { ids, problems };
}

// ---------------------------------------------------------------------------------------------
// The test files and the cross-check.

type TestFile = { path: string; source: string };

function testFiles(): TestFile[] {
  const folders: Array<[string, RegExp]> = [
    ["src", /\.test\.ts$/],
    ["tests", /\.test\.ts$/],
    ["scripts", /\.test\.ts$/],
    ["e2e", /\.spec\.ts$/],
  ];
  return folders.flatMap(([folder, pattern]) =>
    fs
      .readdirSync(path.join(root, folder), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && pattern.test(entry.name))
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
      .filter((file) => file !== thisFile && !file.split("/").includes("node_modules"))
      .sort()
      .map((file) => ({ path: file, source: fs.readFileSync(path.join(root, file), "utf8") })),
  );
}

type Survey = {
  /** Each id the titles name, with where ("file:line"). */
  named: Map<string, string[]>;
  /** Ids written in a file's strings that none of its titles names. */
  stray: string[];
  /** Ids named in a wrong form (a bare area, a backwards run). */
  malformed: string[];
};

function survey(files: TestFile[]): Survey {
  const named = new Map<string, string[]>();
  const stray: string[] = [];
  const malformed: string[] = [];
  for (const file of files) {
    const titled = new Set<string>();
    for (const title of readTitles(file.source)) {
      for (const id of title.ids) {
        titled.add(id);
        named.set(id, [...(named.get(id) ?? []), `${file.path}:${title.line}`]);
      }
      for (const problem of title.problems) malformed.push(`${file.path}:${title.line}: ${problem}`);
    }
    for (const { id, line } of idsWritten(file.source)) {
      if (!titled.has(id)) stray.push(`${id} in ${file.path}:${line} is in a string no test title is read from`);
    }
  }
  return { named, stray, malformed };
}

/** What is out of step between the listed ids and the ids the titles name. */
function crossCheck(listed: string[], named: Map<string, string[]>): { unlisted: string[]; unnamed: string[] } {
  const known = new Set(listed);
  const unlisted = [...named]
    .filter(([id]) => !known.has(id))
    .map(([id, where]) => `${id} is named by ${where.join(", ")} but not listed in docs/requirements.md`);
  const unnamed = listed.filter((id) => !named.has(id)).map((id) => `${id} is named by no test title`);
  return { unlisted, unnamed };
}

// ---------------------------------------------------------------------------------------------

describe("requirement ids: docs/requirements.md and the test titles agree", () => {
  const catalogue = parseRequirements(fs.readFileSync(requirementsPath, "utf8"));
  const files = testFiles();
  const found = survey(files);
  const { unlisted, unnamed } = crossCheck(catalogue.ids, found.named);

  it("finds the test files in src, tests, scripts and e2e", () => {
    for (const folder of ["src/", "tests/", "scripts/", "e2e/"]) {
      expect(
        files.some((file) => file.path.startsWith(folder)),
        folder,
      ).toBe(true);
    }
    expect(found.named.size).toBeGreaterThan(0);
  });

  it("docs/requirements.md has one well-formed line per id, each id once, under its area's heading", () => {
    expect(catalogue.problems).toEqual([]);
    expect(catalogue.ids.length).toBeGreaterThan(0);
  });

  it("every id a test title names is listed in docs/requirements.md", () => {
    expect(unlisted).toEqual([]);
  });

  it("every id listed in docs/requirements.md is named by a test title", () => {
    expect(unnamed).toEqual([]);
  });

  it("titles name ids as S-AREA-NN (or runs S-AREA-NN..MM)", () => {
    expect(found.malformed).toEqual([]);
  });

  it("every id written in a test file is one its titles name", () => {
    expect(found.stray).toEqual([]);
  });
});

describe("the title reader", () => {
  const idsOf = (source: string) => readTitles(source).map((title) => title.ids);

  it("reads it, test and describe titles with their modifiers, not comments or other calls", () => {
    const source = [
      'describe("S-AA-01 outer", () => {',
      '  // it("S-AA-90 a comment")',
      "  /* test('S-AA-91') */",
      "  it('S-AA-02 single quotes', () => {});",
      "  it.skip(`S-AA-03 a template`, () => {});",
      '  test.describe.serial("S-AA-04 playwright", () => {});',
      '  it.skipIf(process.env.CI)("S-AA-05 curried", () => {});',
      "  it(",
      '    "S-AA-06 on its own line",',
      "    async () => {},",
      "  );",
      '  test.step("S-AA-92 a step is no title", async () => {});',
      '  expect(/it\\("S-AA-93/.test("x")).toBe(false);',
      "  const label = \"it('S-AA-94')\";",
      "});",
    ].join("\n");
    expect(idsOf(source)).toEqual([["S-AA-01"], ["S-AA-02"], ["S-AA-03"], ["S-AA-04"], ["S-AA-05"], ["S-AA-06"]]);
    expect(readTitles(source).map((title) => title.line)).toEqual([1, 4, 5, 6, 7, 8]);
  });

  it("reads several ids, runs and both branches of a condition", () => {
    expect(idsOf('it("S-AA-01 S-BB-02..04: x", () => {});')).toEqual([["S-AA-01", "S-BB-02", "S-BB-03", "S-BB-04"]]);
    expect(idsOf(`it(ok ? "S-AA-01 yes" : \`S-AA-02 no \${why}\`, () => {});`)).toEqual([["S-AA-01", "S-AA-02"]]);
  });

  it("follows a title built in a loop over an array of ids", () => {
    const source = `
const guarded = [
  { ids: "S-GG-05", path: "/a" },
  { ids: "S-GG-06", path: "/b" },
];
for (const { ids, path } of guarded) {
  test(\`\${ids} S-GG-01 \${path} redirects\`, async () => {});
}`;
    expect(idsOf(source)).toEqual([["S-GG-01", "S-GG-05", "S-GG-06"]]);
  });

  it("follows a title held in a const, and an it.each table when the title has a placeholder", () => {
    const source = `
for (const caller of callers) {
  const name = allowed ? \`lets \${caller} through\` : "S-RR-06 refuses";
  it(name, () => {});
}
it.each([["S-VV-01", "a"], ["S-VV-02", "b"]])("%s is checked", () => {});
it.each([["S-VV-03", "a"]])("no placeholder", () => {});`;
    expect(idsOf(source)).toEqual([["S-RR-06"], ["S-VV-01", "S-VV-02"], []]);
  });

  it("reports an id that sits in a string no title is read from", () => {
    const source = `const check = (id: string) => it(\`\${id} works\`, () => {});
check("S-HH-01");
it("S-HH-02 plain", () => {});`;
    const result = survey([{ path: "x.test.ts", source }]);
    expect([...result.named.keys()]).toEqual(["S-HH-02"]);
    expect(result.stray).toEqual(["S-HH-01 in x.test.ts:2 is in a string no test title is read from"]);
  });

  it("reports an area without a number and a backwards run", () => {
    const result = survey([
      { path: "y.test.ts", source: 'it("S-CC the area", () => {});\nit("S-CC-05..02", () => {});' },
    ]);
    expect(result.malformed).toEqual([
      'y.test.ts:1: "S-CC" names an area, not an id (S-AREA-NN)',
      'y.test.ts:2: "S-CC-05..02" is not a run of ids (the second number must be the larger)',
    ]);
  });
});

describe("the requirements file's format and the cross-check", () => {
  const good = [
    "# Requirements",
    "",
    "Preface naming `S-AREA-NN` freely.",
    "",
    "## First area (AA)",
    "",
    "What the first area covers.",
    "",
    "- `S-AA-01` the first requirement.",
    "- `S-AA-02` the second requirement.",
  ];

  it("reads the ids of a well-formed file", () => {
    expect(parseRequirements(good.join("\n"))).toEqual({ ids: ["S-AA-01", "S-AA-02"], problems: [] });
  });

  it("reports a repeated id, a malformed line, an id under another area and a bad heading", () => {
    const broken = [
      ...good,
      "- `S-AA-01` the first again.",
      "- S-AA-03 without backticks",
      "- `S-AA-04`",
      "- `S-BB-01` in the wrong area.",
      "## No code",
    ];
    expect(parseRequirements(broken.join("\n")).problems).toEqual([
      "line 11: S-AA-01 is listed again (first on line 9)",
      'line 12: not "- `S-AREA-NN` text": - S-AA-03 without backticks',
      'line 13: not "- `S-AREA-NN` text": - `S-AA-04`',
      "line 14: S-BB-01 stands under the heading of area AA",
      'line 15: an area heading reads "## Area name (AREA)": ## No code',
    ]);
  });

  it("fails the real file with one id removed, one added twice and a title naming an unlisted id", () => {
    const lines = fs.readFileSync(requirementsPath, "utf8").split("\n");
    const firstId = lines.findIndex((line) => line.startsWith("- `S-"));
    // Drop the first id's line and write the next one twice.
    const [removedLine = ""] = lines.splice(firstId, 1);
    lines.splice(firstId, 0, lines[firstId] ?? "");
    const removed = requirementLine.exec(removedLine);
    const copy = lines.join("\n");
    const catalogue = parseRequirements(copy);
    expect(catalogue.problems).toHaveLength(1);
    expect(catalogue.problems[0]).toMatch(/is listed again/);

    const named = new Map(catalogue.ids.map((id) => [id, ["some.test.ts:1"]]));
    const removedId = `S-${removed?.[1]}-${removed?.[2]}`;
    named.set(removedId, ["a.test.ts:3"]);
    named.set("S-ZZ-99", ["b.spec.ts:7"]);
    named.delete(catalogue.ids[1] ?? "");
    expect(crossCheck(catalogue.ids, named)).toEqual({
      unlisted: [
        `${removedId} is named by a.test.ts:3 but not listed in docs/requirements.md`,
        "S-ZZ-99 is named by b.spec.ts:7 but not listed in docs/requirements.md",
      ],
      unnamed: [`${catalogue.ids[1]} is named by no test title`],
    });
  });
});
