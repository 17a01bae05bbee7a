import { brand } from "../../shared/brand";
import { plans, trialDays } from "../../shared/plans";
import type { SiteHead } from "../site-data";
import { carouselImageSizes, screenshotSrc, screenshotSrcSet, socialScreenshot } from "./screenshots";

const description = `${brand.name} is client retention software for accounting, legal, consulting, marketing and real-estate firms: client health, recurring work, 50+ task templates and signed records. ${trialDays}-day free trial, no demo needed.`;

/** The landing page's head (S-LAND-37..42): title, description, keywords, robots, social cards, JSON-LD. */
export const landingHead: SiteHead = {
  title: `${brand.name}: ${brand.tagline} | Client Retention Software for Professional Firms`,
  description,
  keywords: [
    "client retention software",
    "CRM for accounting firms",
    "law firm client management",
    "consulting client management",
    "marketing agency client management",
    "real estate client management",
    "recurring task management",
    "task templates",
    "client health",
    "professional services",
  ],
  robots: "index, follow",
  path: "/",
  image: socialScreenshot.src,
  imageAlt: "The Tendwell dashboard with client health, overdue work and completion rates",
  ogType: "website",
  // The carousel's first slide is the largest thing on a phone's first screen.
  imagePreload: {
    href: screenshotSrc("client-management", 1280),
    srcSet: screenshotSrcSet("client-management"),
    sizes: carouselImageSizes,
  },
  jsonLd: (origin) => [
    {
      "@context": "https://schema.org",
      "@type": "SoftwareApplication",
      name: brand.name,
      description,
      url: `${origin}/`,
      image: `${origin}${socialScreenshot.src}`,
      applicationCategory: "BusinessApplication",
      operatingSystem: "Web",
      offers: {
        "@type": "Offer",
        price: "0",
        priceCurrency: "USD",
        description: `${trialDays}-day free trial with full features; then from $${plans.starter.monthlyPriceUsd} per month, billed monthly.`,
        eligibleDuration: { "@type": "QuantitativeValue", value: trialDays, unitCode: "DAY" },
        url: `${origin}/signup`,
      },
      publisher: { "@type": "Organization", name: brand.legalEntity, email: brand.contactEmail },
    },
  ],
};
