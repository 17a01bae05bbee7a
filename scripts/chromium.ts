/**
 * Debian's Chromium and the flags every browser run of this project uses (the browser tests, the
 * screenshots, the Lighthouse bench): no sandbox (CI runs as root), no GPU, and none of the
 * background traffic a closed network would only stall on. CHROMIUM_PATH picks another binary.
 */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
