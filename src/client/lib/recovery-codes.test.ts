import { describe, expect, it } from "vitest";
import {
  formatRecoveryCode,
  recoveryCodesFileName,
  recoveryCodesLeftMessage,
  recoveryCodesText,
} from "./recovery-codes";

describe("recovery codes", () => {
  it("shows a code in four groups of four, whatever its case or separators", () => {
    expect(formatRecoveryCode("abcdefghijklmnop")).toBe("abcd-efgh-ijkl-mnop");
    expect(formatRecoveryCode("ABCD EFGH-ijkl mnop")).toBe("abcd-efgh-ijkl-mnop");
    expect(formatRecoveryCode("abcd-efgh-ijkl-mnop")).toBe("abcd-efgh-ijkl-mnop");
  });

  it("says how many are left, and suggests new ones when few", () => {
    expect(recoveryCodesLeftMessage(9)).toBe("You have 9 of 10 recovery codes left.");
    expect(recoveryCodesLeftMessage(4)).toBe("You have 4 of 10 recovery codes left.");
    expect(recoveryCodesLeftMessage(3)).toBe("You have 3 of 10 recovery codes left. Make new ones in Settings soon.");
    expect(recoveryCodesLeftMessage(0)).toBe("You have no recovery codes left. Make new ones in Settings now.");
  });

  it("writes a file that names its owner and day, then one code a line", () => {
    const made = new Date("2026-11-28T12:00:00Z");
    const text = recoveryCodesText(
      ["abcdefghijklmnop", "qrstuvwxyz234567"],
      { username: "olivia.hart", firmName: "Northbridge" },
      made,
    );
    const lines = text.split("\n");
    expect(lines[0]).toBe("Tendwell recovery codes for olivia.hart (Northbridge)");
    expect(lines[1]).toBe("Made on 2026-11-28. Making new codes voids these.");
    expect(lines.slice(-3)).toEqual(["abcd-efgh-ijkl-mnop", "qrst-uvwx-yz23-4567", ""]);
    expect(recoveryCodesFileName(made)).toBe("tendwell-recovery-codes-2026-11-28.txt");
  });
});
