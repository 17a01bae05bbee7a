import { and, desc, eq, lte, sql } from "drizzle-orm";
import type { BlogPost, BlogPostSummary } from "../../../shared/blog";
import type { Database } from "../../platform/db/database";
import { preparedStatement } from "../../platform/db/prepared";
import { blogPosts } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";

/* The public blog (S-BLIST-14, S-API-27..28): published posts only, newest first. No firm, no session. */

const summaryColumns = {
  id: blogPosts.id,
  slug: blogPosts.slug,
  title: blogPosts.title,
  introSummary: blogPosts.introSummary,
  featuredImage: blogPosts.featuredImage,
  seoKeywords: blogPosts.seoKeywords,
  metaDescription: blogPosts.metaDescription,
  publishedAt: blogPosts.publishedAt,
  updatedAt: blogPosts.updatedAt,
};

const publishedPosts = preparedStatement("blog_posts_published", (db) =>
  db
    .select(summaryColumns)
    .from(blogPosts)
    .where(lte(blogPosts.publishedAt, sql`now()`))
    .orderBy(desc(blogPosts.publishedAt), blogPosts.slug),
);

const publishedPostBySlug = preparedStatement("blog_post_by_slug", (db) =>
  db
    .select({ ...summaryColumns, fullContent: blogPosts.fullContent })
    .from(blogPosts)
    .where(and(eq(blogPosts.slug, sql.placeholder("slug")), lte(blogPosts.publishedAt, sql`now()`))),
);

const withIsoDates = <Row extends { publishedAt: Date; updatedAt: Date }>(row: Row) => ({
  ...row,
  publishedAt: row.publishedAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export async function listBlogPosts(db: Database): Promise<BlogPostSummary[]> {
  return (await publishedPosts(db).execute()).map(withIsoDates);
}

export async function getBlogPost(db: Database, slug: string): Promise<BlogPost> {
  const [row] = await publishedPostBySlug(db).execute({ slug });
  if (!row) throw new AppError("NOT_FOUND", "Blog post not found");
  return withIsoDates(row);
}
