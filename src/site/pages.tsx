import type { ComponentType } from "react";
import { BlogListPage, type BlogListPageProps } from "./blog/blog-list-page";
import { BlogPostNotFoundPage, BlogPostPage, type BlogPostPageProps } from "./blog/blog-post-page";
import { LandingPage, type LandingPageProps } from "./landing/landing-page";

/**
 * The registry of server-rendered public pages (decision 0022): each page's name, its props and
 * its component. Add a page with one line in each of the two maps below; the server renders it
 * with renderSitePage (src/server/site) and entry-client.tsx hydrates it from the same data.
 */
export type SitePageProps = {
  landing: LandingPageProps;
  blogList: BlogListPageProps;
  blogPost: BlogPostPageProps;
  blogPostNotFound: Record<string, never>;
};

export type SitePageName = keyof SitePageProps;

/** A page and its props, as the server serializes them into the data script. */
export type SiteData = { [Name in SitePageName]: { page: Name; props: SitePageProps[Name] } }[SitePageName];

const sitePages: { [Name in SitePageName]: ComponentType<SitePageProps[Name]> } = {
  landing: LandingPage,
  blogList: BlogListPage,
  blogPost: BlogPostPage,
  blogPostNotFound: BlogPostNotFoundPage,
};

/** Renders the page a SiteData names, on the server and in the browser alike. */
export function SitePage({ data }: { data: SiteData }) {
  const Page = sitePages[data.page] as ComponentType<SiteData["props"]>;
  return <Page {...data.props} />;
}
