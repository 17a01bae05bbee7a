import type { BlogPost, BlogPostSummary } from "../../shared/blog";
import { brand } from "../../shared/brand";
import { absoluteSocialImageUrl } from "./blog-images";

/*
 * What search engines and link previews read about the blog (S-BPOST-02..05):
 * the structured data of schema.org. The server puts it in the page's head as JSON-LD.
 */

export const blogListTitle = `Blog | ${brand.name}`;
export const blogListDescription = `Practical guides from ${brand.name} for accounting firms, law practices, consultancies, agencies and brokerages: recurring client work, onboarding, client reviews and retention.`;
export const blogPostNotFoundTitle = `Blog Post Not Found | ${brand.name}`;

export const blogPostTitle = (post: Pick<BlogPost, "title">) => `${post.title} | ${brand.name} Blog`;

const organization = (origin: string) => ({
  "@type": "Organization",
  name: brand.name,
  legalName: brand.legalEntity,
  url: `${origin}/`,
  email: brand.contactEmail,
});

/** schema.org BlogPosting for one article. */
export function blogPostingJsonLd(post: BlogPost, origin: string) {
  const url = `${origin}/blog/${post.slug}`;
  return {
    "@context": "https://schema.org",
    "@type": "BlogPosting",
    headline: post.title,
    description: post.metaDescription,
    abstract: post.introSummary,
    image: [absoluteSocialImageUrl(origin, post.featuredImage)],
    datePublished: post.publishedAt,
    dateModified: post.updatedAt,
    author: organization(origin),
    publisher: organization(origin),
    keywords: post.seoKeywords.join(", "),
    inLanguage: "en",
    url,
    mainEntityOfPage: { "@type": "WebPage", "@id": url },
  };
}

/** schema.org Blog for the list, naming each article. */
export function blogJsonLd(posts: readonly BlogPostSummary[], origin: string) {
  return {
    "@context": "https://schema.org",
    "@type": "Blog",
    name: `${brand.name} Blog`,
    description: blogListDescription,
    url: `${origin}/blog`,
    publisher: organization(origin),
    blogPost: posts.map((post) => ({
      "@type": "BlogPosting",
      headline: post.title,
      url: `${origin}/blog/${post.slug}`,
      datePublished: post.publishedAt,
      dateModified: post.updatedAt,
      image: absoluteSocialImageUrl(origin, post.featuredImage),
    })),
  };
}
