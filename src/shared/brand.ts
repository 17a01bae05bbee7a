/** Everything the product says about itself lives here, so a rename touches one file. */
export const brand = {
  name: "Tendwell",
  tagline: "Structure That Strengthens Retention",
  legalEntity: "Tendwell, Inc.",
  contactEmail: "hello@tendwell.app",
  supportEmail: "support@tendwell.app",
} as const;
