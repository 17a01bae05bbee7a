import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type BuildStep, buildIfChanged, buildInputs, npmBuild, stampFile } from "./build-if-changed";

// A project of a few files in a temporary folder; the build is a stand-in that writes what the
// real one writes (or fails), and counts its runs.
let root: string;
let builds: number;
let lines: string;
const write = (file: string, content: string) => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), content);
};
const standInBuild: BuildStep = () => {
  builds++;
  for (const file of ["dist/server/main.js", "dist/client/index.html", "dist/client/.vite/manifest.json"])
    write(file, "built");
  return { ok: true, output: "60 lines of bundle sizes\n" };
};
const failingBuild: BuildStep = () => {
  builds++;
  return { ok: false, output: "src/client/main.tsx: syntax error\n" };
};
const start = (build: BuildStep = standInBuild) =>
  buildIfChanged({
    root,
    build,
    write: (text) => {
      lines += text;
    },
  });

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "tendwell-build-if-changed-"));
  builds = 0;
  lines = "";
  write("package.json", '{"name":"app"}');
  write("vite.config.ts", "export default {}");
  write("src/client/main.tsx", "render(<App />)");
  write("src/server/main.ts", "listen()");
  write("src/server/app.test.ts", "it('works')");
  write("src/client/page.test.ts", "const look = 'flex gap-2'");
  write("content/blog/post.md", "# A post");
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("npm start's build", () => {
  it("builds when there is no build", () => {
    expect(start()).toMatchObject({ built: true, ok: true });
    expect(builds).toBe(1);
    expect(lines).toMatch(/^No complete build yet: building… done in \d+ s\n$/);
    expect(fs.existsSync(path.join(root, stampFile))).toBe(true);
  });

  it("skips the build when no input changed, in one line", () => {
    start();
    lines = "";
    expect(start()).toMatchObject({ built: false, ok: true });
    expect(builds).toBe(1);
    expect(lines).toBe("Build is up to date (no source changed since the last build)\n");
  });

  it("builds again when a source file changed, was added or was removed", () => {
    start();
    lines = "";
    write("src/client/main.tsx", "render(<App strict />)");
    expect(start().built).toBe(true);
    expect(lines).toMatch(/^Sources changed since the last build: building… done in \d+ s\n$/);
    write("src/shared/plans.ts", "export const plans = []");
    expect(start().built).toBe(true);
    fs.rmSync(path.join(root, "src/shared/plans.ts"));
    expect(start().built).toBe(true);
    write("vite.config.ts", "export default { build: {} }");
    expect(start().built).toBe(true);
    expect(builds).toBe(5);
  });

  it("does not build for what the build does not read: server tests, the blog's content", () => {
    start();
    write("src/server/app.test.ts", "it('works still')");
    write("content/blog/post.md", "# A post, edited");
    expect(start().built).toBe(false);
  });

  it("builds for a test file Tailwind scans for class names", () => {
    start();
    write("src/client/page.test.ts", "const look = 'grid gap-4'");
    expect(start().built).toBe(true);
  });

  it("builds again when the last build's files are gone", () => {
    start();
    fs.rmSync(path.join(root, "dist/server/main.js"));
    lines = "";
    expect(start().built).toBe(true);
    expect(lines).toMatch(/^The last build's files are missing: building…/);
  });

  it("leaves no stamp after a failed build, so the next start builds again", () => {
    start();
    write("src/client/main.tsx", "render(<App");
    lines = "";
    expect(start(failingBuild)).toMatchObject({ built: true, ok: false });
    expect(lines).toMatch(
      /^Sources changed since the last build: building… failed after \d+ s:\nsrc\/client\/main.tsx/,
    );
    expect(fs.existsSync(path.join(root, stampFile))).toBe(false);
    // Put back as it was when the stamp was written: the dist/ of the failed build is not trusted.
    write("src/client/main.tsx", "render(<App />)");
    expect(start().built).toBe(true);
    expect(builds).toBe(3);
  });

  it("always builds for npm run build, quietly only for npm start", () => {
    const quiet: boolean[] = [];
    const build: BuildStep = (where, isQuiet) => {
      quiet.push(isQuiet);
      return standInBuild(where, isQuiet);
    };
    buildIfChanged({ root, build, always: true, write: () => {} });
    buildIfChanged({ root, build, always: true, write: () => {} });
    start(build);
    expect(quiet).toEqual([false, false]);
    expect(builds).toBe(2);
  });

  it("reads the inputs in well under a second", () => {
    const started = performance.now();
    const files = buildInputs(process.cwd());
    start();
    expect(files).toContain(path.join("src", "server", "main.ts"));
    expect(files).toContain("vite.config.ts");
    expect(files.some((file) => file.startsWith("content"))).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe("npmBuild", () => {
  it("runs build:client then build:server, keeping their output when quiet, and stops at a failure", () => {
    const step = (name: string, code: number) => `node -e "console.log('${name} ran'); process.exit(${code})"`;
    write(
      "package.json",
      JSON.stringify({ scripts: { "build:client": step("client", 0), "build:server": step("server", 0) } }),
    );
    expect(npmBuild(root, true)).toEqual({ ok: true, output: "client ran\nserver ran\n" });
    write(
      "package.json",
      JSON.stringify({ scripts: { "build:client": step("client", 1), "build:server": step("server", 0) } }),
    );
    expect(npmBuild(root, true)).toMatchObject({ ok: false, output: "client ran\n" });
  });
});
