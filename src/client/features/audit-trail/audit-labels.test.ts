import { describe, expect, it } from "vitest";
import { actionLabel, entityName, shortUserAgent, verificationSummary } from "./audit-labels";

describe("the audit trail's wording", () => {
  it("reads an action as a sentence, and shows an unknown one as recorded", () => {
    expect(actionLabel("task.completed")).toBe("Completed task");
    expect(actionLabel("client.updated")).toBe("Changed client");
    // A calendar feed's life as its owner's trail shows it (the server's test records these four).
    expect(
      ["calendar_feed.created", "calendar_feed.updated", "calendar_feed.address_replaced", "calendar_feed.revoked"].map(
        actionLabel,
      ),
    ).toEqual([
      "Turned on their calendar feed",
      "Changed their calendar feed",
      "Replaced their calendar feed's address",
      "Turned off their calendar feed",
    ]);
    expect(actionLabel("something.new")).toBe("something.new");
    expect(actionLabel("toString")).toBe("toString");
  });

  it("names the entity from what the event recorded", () => {
    expect(entityName({ before: { name: "Old Co" }, after: { name: "New Co" } })).toBe("New Co");
    expect(entityName({ before: { name: "Gone Co" }, after: null })).toBe("Gone Co");
    expect(entityName({ before: null, after: { fullName: "Bo Clerk" } })).toBe("Bo Clerk");
    expect(entityName({ before: null, after: { clientIds: [] } })).toBeNull();
    expect(entityName({ before: null, after: null })).toBeNull();
  });

  it("shortens user agents to browser and system", () => {
    expect(
      shortUserAgent(
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
      ),
    ).toBe("Chrome on macOS");
    expect(shortUserAgent("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0")).toBe(
      "Firefox on Windows",
    );
    expect(
      shortUserAgent(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
      ),
    ).toBe("Safari on iOS");
    expect(shortUserAgent("curl/8.5.0")).toBe("curl/8.5.0");
    expect(shortUserAgent(`x${"y".repeat(60)}`)).toHaveLength(41);
    expect(shortUserAgent(null)).toBe("Unknown device");
  });

  it("says whether the chain holds, and where it breaks", () => {
    const at = (iso: string) => `at ${iso}`;
    expect(verificationSummary({ intact: true, events: 1234 }, at)).toEqual({
      title: "Intact",
      detail: "All 1,234 events verified: none was changed or removed.",
    });
    expect(verificationSummary({ intact: true, events: 1 }, at).detail).toBe(
      "The 1 event verified: it was not changed or removed.",
    );
    expect(verificationSummary({ intact: true, events: 0 }, at).detail).toBe("No events recorded yet.");
    expect(
      verificationSummary(
        {
          intact: false,
          events: 41,
          brokenAt: {
            id: "0196a000-0000-7000-8000-000000000001",
            seq: 42,
            action: "task.completed",
            createdAt: "2026-01-10T05:00:00.000Z",
          },
          reason: "changed",
        },
        at,
      ),
    ).toEqual({
      title: "Broken at event #42",
      detail:
        '"Completed task" recorded at 2026-01-10T05:00:00.000Z was changed, or an event before it was removed. ' +
        "The 41 events before it verified intact.",
    });
    const head = {
      id: "0196a000-0000-7000-8000-000000000002",
      seq: 7,
      action: "client.updated",
      createdAt: "2026-01-11T05:00:00.000Z",
    };
    expect(verificationSummary({ intact: false, events: 6, brokenAt: head, reason: "rewritten" }, at).detail).toBe(
      '"Changed client" recorded at 2026-01-11T05:00:00.000Z is not the newest event the app recorded: the trail ' +
        "was rewritten at or before it. The 6 events before it verified intact.",
    );
    expect(verificationSummary({ intact: false, events: 6, brokenAt: head, reason: "added" }, at).detail).toBe(
      '"Changed client" recorded at 2026-01-11T05:00:00.000Z was not written by the app. The 6 events before it verified intact.',
    );
  });

  it("says when the newest events were removed", () => {
    const at = (iso: string) => iso;
    expect(verificationSummary({ intact: false, events: 40, missing: { fromSeq: 41, toSeq: 43 } }, at)).toEqual({
      title: "Events #41 to #43 missing",
      detail:
        "The trail ends at event #40, but 3 newer events were recorded: they were removed. The 40 events before verified intact.",
    });
    expect(verificationSummary({ intact: false, events: 1, missing: { fromSeq: 2, toSeq: 2 } }, at)).toEqual({
      title: "Event #2 missing",
      detail:
        "The trail ends at event #1, but 1 newer event was recorded: it was removed. The 1 event before verified intact.",
    });
  });
});
