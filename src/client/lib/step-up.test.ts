import { describe, expect, it, vi } from "vitest";
import type { ErrorCode } from "../../shared/api-error";
import { ApiError } from "./api";
import { withStepUp } from "./step-up";

const refusal = (code: ErrorCode, status = 403) => new ApiError(status, `${status}: …`, { message: "Refused", code });

describe("withStepUp", () => {
  it("sends the request once and asks nothing when the server accepts it", async () => {
    const request = vi.fn(async () => "saved");
    const confirm = vi.fn(async () => true);
    expect(await withStepUp(request, confirm)).toBe("saved");
    expect(request).toHaveBeenCalledTimes(1);
    expect(confirm).not.toHaveBeenCalled();
  });

  it("on STEP_UP_REQUIRED asks the person to confirm, then sends the request again", async () => {
    const request = vi.fn().mockRejectedValueOnce(refusal("STEP_UP_REQUIRED")).mockResolvedValueOnce("saved");
    const confirm = vi.fn(async () => true);
    expect(await withStepUp(request, confirm)).toBe("saved");
    expect(request).toHaveBeenCalledTimes(2);
    expect(confirm).toHaveBeenCalledTimes(1);
  });

  it("sends it again only once: a second refusal is the caller's to report", async () => {
    const second = refusal("STEP_UP_REQUIRED");
    const request = vi.fn().mockRejectedValueOnce(refusal("STEP_UP_REQUIRED")).mockRejectedValueOnce(second);
    const confirm = vi.fn(async () => true);
    await expect(withStepUp(request, confirm)).rejects.toBe(second);
    expect(request).toHaveBeenCalledTimes(2);
    expect(confirm).toHaveBeenCalledTimes(1);
  });

  it("a cancelled confirmation fails with the server's refusal and sends nothing more", async () => {
    const first = refusal("STEP_UP_REQUIRED");
    const request = vi.fn().mockRejectedValueOnce(first);
    await expect(withStepUp(request, async () => false)).rejects.toBe(first);
    expect(request).toHaveBeenCalledTimes(1);
  });

  it("passes every other failure through without asking", async () => {
    const confirm = vi.fn(async () => true);
    for (const error of [refusal("FORBIDDEN"), refusal("VALIDATION_FAILED", 400), new TypeError("Failed to fetch")]) {
      await expect(withStepUp(() => Promise.reject(error), confirm)).rejects.toBe(error);
    }
    expect(confirm).not.toHaveBeenCalled();
  });
});
