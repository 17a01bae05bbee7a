import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, errorMessage, requestJson } from "./api";

// The network is replaced by fixed answers: what is under test is how an answer becomes an error.
const answer = (body: string, init: ResponseInit) => vi.fn(async () => new Response(body, init));

afterEach(() => vi.unstubAllGlobals());

describe("requestJson (S-ERR-01)", () => {
  it('turns a non-OK answer into an ApiError whose message is "status: body"', async () => {
    const body = JSON.stringify({ message: "Company name is required", code: "VALIDATION_FAILED" });
    vi.stubGlobal("fetch", answer(body, { status: 400 }));
    const error = await requestJson("POST", "/api/clients", {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(`400: ${body}`);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).body).toEqual({ message: "Company name is required", code: "VALIDATION_FAILED" });
  });

  it("uses the status text when the body is empty", async () => {
    vi.stubGlobal("fetch", answer("", { status: 503, statusText: "Service Unavailable" }));
    await expect(requestJson("GET", "/api/dashboard")).rejects.toThrow("503: Service Unavailable");
  });

  it("sends the session cookie, and a body as JSON", async () => {
    const fetch = answer('{"ok":true}', { status: 200 });
    vi.stubGlobal("fetch", fetch);
    expect(await requestJson("POST", "/api/auth/login", { username: "a" })).toEqual({ ok: true });
    expect(fetch).toHaveBeenCalledWith("/api/auth/login", {
      method: "POST",
      credentials: "include",
      headers: { "content-type": "application/json" },
      body: '{"username":"a"}',
      signal: undefined,
    });
  });

  it("sends a Blob (a file) as it is, with its own type as the content type", async () => {
    const fetch = answer('{"ok":true}', { status: 201 });
    vi.stubGlobal("fetch", fetch);
    const file = new Blob(["Company\nAcme\n"], { type: "text/csv" });
    await requestJson("POST", "/api/client-imports", file, { idempotencyKey: "key-1" });
    expect(fetch).toHaveBeenCalledWith("/api/client-imports", {
      method: "POST",
      credentials: "include",
      headers: { "idempotency-key": "key-1" },
      body: file,
      signal: undefined,
    });
  });
});

describe("errorMessage", () => {
  it("prefers the server's message", () => {
    const error = new ApiError(403, "403: …", { message: "Your role (user) does not allow you to create users" });
    expect(errorMessage(error, "Failed to create user")).toBe("Your role (user) does not allow you to create users");
  });

  it("falls back to the screen's text, never a raw body, an object or a stack", () => {
    expect(errorMessage(new ApiError(502, "502: <html>Bad gateway</html>", undefined), "Failed")).toBe("Failed");
    expect(errorMessage(new ApiError(400, "400: {}", { message: "  " }), "Failed")).toBe("Failed");
    expect(errorMessage(new TypeError("Failed to fetch"), "Failed")).toBe("Failed");
    expect(errorMessage({ message: { nested: true } }, "Failed")).toBe("Failed");
  });
});
