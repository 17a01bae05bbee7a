import { describe, expect, it } from "vitest";
import { frequencies, taskPriorities } from "./tasks";
import {
  findLibraryTemplate,
  type LibraryCategory,
  libraryCategories,
  libraryCategoryLabels,
  templateLibrary,
} from "./template-library";

const industryCategories: LibraryCategory[] = ["accounting", "legal", "consulting", "marketing", "real_estate"];

function countBy<T>(values: readonly T[]): Map<T, number> {
  const counts = new Map<T, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

function duplicates(values: readonly string[]): string[] {
  return [...countBy(values)].filter(([, count]) => count > 1).map(([value]) => value);
}

describe("template library", () => {
  it("has unique kebab-case keys of at most 60 characters", () => {
    const keys = templateLibrary.map((template) => template.key);
    expect(duplicates(keys)).toEqual([]);
    for (const key of keys) {
      expect(key).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(key.length, key).toBeLessThanOrEqual(60);
    }
  });

  it("has unique names (ignoring case) of at most 50 characters", () => {
    const names = templateLibrary.map((template) => template.name);
    expect(duplicates(names.map((name) => name.toLowerCase()))).toEqual([]);
    for (const name of names) {
      expect(name.length, name).toBeGreaterThan(0);
      expect(name.length, name).toBeLessThanOrEqual(50);
      expect(name, name).toBe(name.trim());
      expect(name[0], name).toMatch(/[A-Z0-9]/);
    }
  });

  it("has descriptions of 80 to 200 characters that end with a period", () => {
    for (const { key, description } of templateLibrary) {
      expect(description.length, key).toBeGreaterThanOrEqual(80);
      expect(description.length, key).toBeLessThanOrEqual(200);
      expect(description.endsWith("."), key).toBe(true);
      expect(description, key).toBe(description.trim());
      expect(description, key).not.toMatch(/\s{2}/);
    }
  });

  it("uses only valid categories, priorities and frequencies", () => {
    for (const { key, category, priority, frequency } of templateLibrary) {
      expect(libraryCategories, key).toContain(category);
      expect(taskPriorities, key).toContain(priority);
      if (frequency !== null) expect(frequencies, key).toContain(frequency);
    }
  });

  it("labels every category", () => {
    expect(Object.keys(libraryCategoryLabels).sort()).toEqual([...libraryCategories].sort());
    expect(libraryCategoryLabels.real_estate).toBe("Real estate");
  });

  it("has enough templates in every category", () => {
    const counts = countBy(templateLibrary.map((template) => template.category));
    for (const category of industryCategories) {
      expect(counts.get(category) ?? 0, category).toBeGreaterThanOrEqual(9);
    }
    expect(counts.get("general") ?? 0).toBeGreaterThanOrEqual(5);
    expect(templateLibrary.length).toBeGreaterThanOrEqual(60);
  });

  it("includes the templates the product promises", () => {
    const names = templateLibrary.map((template) => template.name);
    for (const promised of [
      "Monthly bank reconciliation",
      "Quarterly estimated tax reminder",
      "Annual engagement letter renewal",
      "Conflict check for new matter",
      "Monthly campaign performance report",
      "Lease renewal follow-up",
    ]) {
      expect(names).toContain(promised);
    }
  });

  it("uses every frequency and one-time work", () => {
    const used = new Set(templateLibrary.map((template) => template.frequency));
    for (const frequency of [...frequencies, null]) {
      expect(used.has(frequency), String(frequency)).toBe(true);
    }
  });
});

describe("findLibraryTemplate", () => {
  it("finds every template by its key", () => {
    for (const template of templateLibrary) {
      expect(findLibraryTemplate(template.key)).toBe(template);
    }
    expect(findLibraryTemplate("monthly-bank-reconciliation")?.name).toBe("Monthly bank reconciliation");
  });

  it("returns undefined for an unknown key", () => {
    expect(findLibraryTemplate("no-such-template")).toBeUndefined();
    expect(findLibraryTemplate("")).toBeUndefined();
    expect(findLibraryTemplate("Monthly-Bank-Reconciliation")).toBeUndefined();
  });
});
