/** Everything the product says about itself lives here, so a rename touches one file. */
export const brand = {
  name: "Tendwell",
  tagline: "Structure That Strengthens Retention",
  legalEntity: "Tendwell, Inc.",
  contactEmail: "hello@tendwell.app",
  supportEmail: "support@tendwell.app",
  /** The logo mark's glyph (an SVG path on a 32×32 rounded square), drawn by the app, the public pages and the tab icon. */
  markPath: "M9 11h14M16 11v12M11.5 17.5c1.5 2 3 3 4.5 3s3-1 4.5-3",
} as const;
