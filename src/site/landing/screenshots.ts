/**
 * The product screenshots the landing page shows (made by `npm run screenshots` into
 * src/client/public/screenshots, served at /screenshots/): each in 640 and 1280 px wide WebP.
 */
export type ScreenshotName = "client-management" | "dashboard" | "tasks" | "relationship-hub" | "signature";

export const screenshotWidth = 1280;
export const screenshotHeight = 800;

export const screenshotSrc = (name: ScreenshotName, width: 640 | 1280 = 1280) => `/screenshots/${name}-${width}.webp`;
export const screenshotSrcSet = (name: ScreenshotName) =>
  `${screenshotSrc(name, 640)} 640w, ${screenshotSrc(name, 1280)} 1280w`;

/** The carousel's `sizes`, shared with the head's preload of the first slide so both pick one file. */
export const carouselImageSizes = "(min-width: 1024px) 640px, 72vw";

/** The landing page's link-preview picture (og:image): the dashboard, 1200 x 630 JPEG, made with the rest. */
export const socialScreenshot = {
  name: "dashboard",
  src: "/screenshots/dashboard-social.jpg",
  width: 1200,
  height: 630,
} as const satisfies { name: ScreenshotName; src: string; width: number; height: number };
