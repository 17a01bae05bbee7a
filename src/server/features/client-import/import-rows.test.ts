import { describe, expect, it } from "vitest";
import { checkRow, clientMatcher, fitMapping, headerSignature, importNameKey, suggestMapping } from "./import-rows";

describe("importNameKey", () => {
  it("S-IMPORT-07 ignores case, punctuation and runs of spaces", () => {
    expect(importNameKey("  ACME,  Ltd. ")).toBe("acme ltd");
    expect(importNameKey("Smith&Jones")).toBe(importNameKey("smith & jones"));
    expect(importNameKey("Café Nord")).not.toBe(importNameKey("Cafe Nord"));
  });
});

describe("suggestMapping", () => {
  it("S-IMPORT-05 maps headers by their usual names, each column once", () => {
    expect(suggestMapping(["Company", "E-mail", "Contact", "Title", "Status", "Notes"])).toEqual({
      name: 0,
      industry: null,
      address: null,
      phone: null,
      email: 1,
      status: 4,
      contactName: 2,
      contactTitle: 3,
      contactPhone: null,
      contactEmail: null,
    });
    expect(headerSignature(["Company", "E-mail"])).toBe(headerSignature([" company", "e mail"]));
    expect(fitMapping({ name: 0, email: 7 }, 3)).toMatchObject({ name: 0, email: null });
  });
});

describe("checkRow", () => {
  const mapping = { name: 0, email: 1, status: 2, contactName: 3, contactEmail: 4 };

  it("S-IMPORT-06 takes a row as the create does: trimmed, empty as none, status ignoring case", () => {
    expect(checkRow([" Acme ", "", "Prospect", "", ""], mapping)).toEqual({
      input: {
        name: "Acme",
        industry: undefined,
        address: undefined,
        phone: undefined,
        email: undefined,
        status: "prospect",
        templateIds: [],
      },
      errors: [],
    });
  });

  it("S-IMPORT-06 gives each bad field the create schema's own message", () => {
    expect(checkRow(["", "not-an-email", "gold", "", "x@"], mapping).errors).toEqual([
      { field: "name", message: "Company name is required" },
      { field: "email", message: "Invalid email address" },
      { field: "status", message: "Invalid enum value" },
      { field: "contactName", message: "Contact name is required" },
      { field: "contactEmail", message: "Invalid email address" },
    ]);
    expect(checkRow(["x".repeat(201), "", "", "", ""], mapping).errors).toEqual([
      { field: "name", message: "Company name must be at most 200 characters" },
    ]);
  });
});

describe("clientMatcher", () => {
  it("S-IMPORT-07 matches by the name's key first, then by e-mail ignoring case", () => {
    const match = clientMatcher([
      { id: "00000000-0000-7000-8000-000000000001", name: "Acme Ltd.", email: "office@acme.test" },
      { id: "00000000-0000-7000-8000-000000000002", name: "Beta", email: "HELLO@beta.test" },
    ]);
    expect(match({ name: "ACME ltd", email: null })?.by).toBe("name");
    expect(match({ name: "Beta Holdings", email: "hello@BETA.test" })).toEqual({
      clientId: "00000000-0000-7000-8000-000000000002",
      name: "Beta",
      by: "email",
    });
    expect(match({ name: "Gamma", email: null })).toBeNull();
  });
});
