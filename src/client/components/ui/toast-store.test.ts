import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  createToastStore,
  SWIPE_THRESHOLD,
  TOAST_DURATION,
  TOAST_HOTKEY,
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY,
} from "./toast-store";

describe("the toast store", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("S-CONST-36 S-CONST-37 S-CONST-38 S-CONST-39 S-CONST-40 holds the notification constants", () => {
    expect(TOAST_LIMIT).toBe(1);
    expect(TOAST_REMOVE_DELAY).toBe(1_000_000);
    expect(TOAST_DURATION).toBe(5000);
    expect(SWIPE_THRESHOLD).toBe(50);
    expect(TOAST_HOTKEY).toBe("F8");
  });

  it("S-CONST-36 a new toast replaces the one on screen", () => {
    const store = createToastStore();
    store.show({ title: "First", variant: "success" });
    const second = store.show({ title: "Second", variant: "destructive" });
    expect(store.getSnapshot()).toEqual([{ id: second, title: "Second", variant: "destructive", open: true }]);
  });

  it("S-CONST-37 a dismissed toast is hidden at once and removed 1,000,000 ms later", () => {
    const store = createToastStore();
    const id = store.show({ title: "Saved", variant: "success" });
    store.dismiss(id);
    expect(store.getSnapshot()).toEqual([{ id, title: "Saved", variant: "success", open: false }]);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY - 1);
    expect(store.getSnapshot()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()).toEqual([]);
  });

  it("dismissing twice does not restart the removal delay", () => {
    const store = createToastStore();
    const id = store.show({ title: "Saved", variant: "success" });
    store.dismiss(id);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY / 2);
    store.dismiss(id);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY / 2);
    expect(store.getSnapshot()).toEqual([]);
  });

  it("a toast replaced before its removal is not removed again, and the newer one stays", () => {
    const store = createToastStore();
    const first = store.show({ title: "First", variant: "success" });
    store.dismiss(first);
    const second = store.show({ title: "Second", variant: "success" });
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY);
    expect(store.getSnapshot().map((toast) => toast.id)).toEqual([second]);
  });

  it("tells its subscribers of every change until they unsubscribe", () => {
    const store = createToastStore();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    const id = store.show({ title: "Saved", variant: "success" });
    store.dismiss(id);
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    store.show({ title: "Again", variant: "success" });
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
