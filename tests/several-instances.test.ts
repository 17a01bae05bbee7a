import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { type FaultReport, formatReport } from "../scripts/faults/report";
import { severalInstances, severalInstancesChecks } from "../scripts/faults/several-instances";

/*
 * The several-instances scenario (scripts/faults/several-instances.ts) on this checkout's
 * sources: two app processes behind nginx running deploy/nginx.conf, on a database of their own
 * on the run's PostgreSQL server and on the Redis of TEST_REDIS_URL. It runs where that is set,
 * as on CI, which installs nginx; `npm run fault:several-instances` also replays the Dockerfile's
 * steps, which take minutes.
 */

const redisUrl = process.env.TEST_REDIS_URL;
const nginxInstalled = (() => {
  try {
    execFileSync("nginx", ["-v"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!redisUrl)("several instances behind nginx (TEST_REDIS_URL)", () => {
  let report: FaultReport;

  beforeAll(async () => {
    // Where Redis is, nginx must be too: a machine that runs this is expected to run all of it.
    expect(nginxInstalled, "nginx is not installed (apt-get install nginx)").toBe(true);
    const server = inject("testDatabaseServer");
    report = await severalInstances({
      adminUrl: server.adminUrl,
      redisUrl,
      databasePrefix: server.prefix,
      image: "sources",
      log: () => {},
    });
  }, 240_000);

  const expectCheck = (name: string) => {
    const check = report.checks.find((candidate) => candidate.name === name);
    expect(check, formatReport(report)).toBeDefined();
    expect(check?.passed, formatReport(report)).toBe(true);
  };

  it("S-MULTI-01 a session made on one instance works on the other, which sees the client's own address", () => {
    expectCheck(severalInstancesChecks.session);
    expectCheck(severalInstancesChecks.clientAddress);
  });

  it("S-MULTI-02 signing out on one instance ends the session on every instance", () => {
    expectCheck(severalInstancesChecks.signOut);
  });

  it("S-MULTI-03 the sign-in throttle counts the failures of every instance together, per client address", () => {
    expectCheck(severalInstancesChecks.throttle);
    expectCheck(severalInstancesChecks.throttleAddress);
  });

  it("S-MULTI-04 the general rate limit counts one address across every instance", () => {
    expectCheck(severalInstancesChecks.rateLimit);
  });

  it("S-MULTI-05 instances running the scheduler at once make each period's task exactly once", () => {
    expectCheck(severalInstancesChecks.scheduler);
  });

  it("S-MULTI-06 stopping an instance under load loses no GET and creates nothing twice", () => {
    expectCheck(severalInstancesChecks.sigtermGets);
    expectCheck(severalInstancesChecks.sigtermPosts);
  });

  it("the scenario passes as a whole", () => {
    expect(
      report.checks.every((check) => check.passed),
      formatReport(report),
    ).toBe(true);
  });
});
