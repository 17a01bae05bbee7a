import { describe, expect, it } from "vitest";
import { apiClient } from "../../../../tests/api-client";
import { captureLogs } from "../../../../tests/log-capture";
import { useTestApp } from "../../../../tests/test-app";
import { insertFirm, insertUser } from "../../seed/factories";
import { totpCode, totpStep } from "./totp";

/*
 * What the app logs while second factors are set up and used, at its most talkative level: no
 * secret, code, recovery code or password, in any field of any line (decision 0044).
 */
describe("multi-factor sign-in in the logs", () => {
  const captured = captureLogs("trace");
  const ctx = useTestApp({ logger: captured.logger });

  it("S-MFA-20 no secret, code, recovery code or password appears in any log line, even at trace", async () => {
    const password = "correct horse battery";
    const firm = await insertFirm(ctx.database.db, { name: "Logged firm" });
    const user = await insertUser(ctx.database.db, { firmId: firm.id, role: "super_admin", password });
    const client = apiClient(ctx.app, { ip: "10.2.0.1" });
    expect((await client.post("/api/auth/login", { username: user.username, password })).status).toBe(200);
    const started = await client.post("/api/account/factors/totp");
    const secret: string = started.body.secret.replace(/ /g, "");
    const enrolCode = totpCode(secret, totpStep(new Date()));
    const confirmed = await client.post("/api/account/factors/totp/confirm", { code: enrolCode });
    const recoveryCodes: string[] = confirmed.body.recoveryCodes;

    const again = apiClient(ctx.app, { ip: "10.2.0.2" });
    expect((await again.post("/api/auth/login", { username: user.username, password })).status).toBe(202);
    const signInCode = totpCode(secret, totpStep(new Date()) + 1);
    expect((await again.post("/api/auth/second-step", { method: "totp", code: signInCode })).status).toBe(200);
    const third = apiClient(ctx.app, { ip: "10.2.0.3" });
    await third.post("/api/auth/login", { username: user.username, password });
    const recovery = recoveryCodes[0] ?? "";
    expect((await third.post("/api/auth/second-step", { method: "recovery_code", code: recovery })).status).toBe(200);
    expect((await third.post("/api/account/recovery-codes")).status).toBe(200);

    const logged = captured.lines.map((line) => JSON.stringify(line)).join("\n");
    // The requests were logged: the check below looks at something.
    expect(logged).toContain("/api/auth/second-step");
    for (const secretText of [secret, password, ...recoveryCodes, recovery.replace(/-/g, "")]) {
      expect(logged).not.toContain(secretText);
    }
    // Six digits occur in any log's times and ids by chance: a code would be a string of its own.
    for (const code of [enrolCode, signInCode]) expect(logged).not.toContain(`"${code}"`);
  });
});
