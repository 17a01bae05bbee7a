import type { FastifyInstance } from "fastify";
import { blogSlugMaxLength, blogSlugPattern } from "../../../shared/blog";
import { defaultBlogImage, socialImageUrl } from "../../../site/blog/blog-images";
import {
  blogJsonLd,
  blogListDescription,
  blogListTitle,
  blogPostingJsonLd,
  blogPostNotFoundTitle,
  blogPostTitle,
} from "../../../site/blog/blog-seo";
import type { Database } from "../../platform/db/database";
import { AppError } from "../../platform/errors";
import { getBlogPost, listBlogPosts } from "./blog.service";

/*
 * The blog's public pages (the BLIST and BPOST requirements, docs/design/blog-screens.md), rendered
 * on the server through the site's page registry: /blog and /blog/:slug. The data comes from the
 * blog service, the same prepared reads as GET /api/blog and GET /api/blog/:slug, so a crawler gets
 * the whole article in the first answer.
 */
export function blogPagesRoutes(app: FastifyInstance, { db }: { db: Database }) {
  app.get("/blog", async (request, reply) => {
    const posts = await listBlogPosts(db);
    return app.sendSitePage(request, reply, {
      data: { page: "blogList", props: { posts } },
      head: {
        title: blogListTitle,
        description: blogListDescription,
        keywords: [...new Set(posts.flatMap((post) => post.seoKeywords.slice(0, 3)))].slice(0, 20),
        path: "/blog",
        image: socialImageUrl(posts[0]?.featuredImage ?? defaultBlogImage),
        imageAlt: "An illustration from the latest Tendwell blog article",
        ogType: "website",
        jsonLd: (origin) => [blogJsonLd(posts, origin)],
      },
    });
  });

  // The list has one address; the trailing-slash form points to it.
  app.get("/blog/", async (_request, reply) => reply.redirect("/blog", 301));

  app.get<{ Params: { slug: string } }>("/blog/:slug", async (request, reply) => {
    const { slug } = request.params;
    const post = await findPost(db, slug);
    if (!post) {
      // An unknown slug is a real 404 (S-BPOST-16), with the page a visitor can move on from.
      return app.sendSitePage(request, reply, {
        status: 404,
        data: { page: "blogPostNotFound", props: {} },
        head: {
          title: blogPostNotFoundTitle,
          description: "The blog post you're looking for doesn't exist.",
          keywords: [],
          robots: "noindex, follow",
          path: "/blog",
          image: socialImageUrl(defaultBlogImage),
          imageAlt: "",
        },
      });
    }
    return app.sendSitePage(request, reply, {
      data: { page: "blogPost", props: { post } },
      head: {
        title: blogPostTitle(post),
        description: post.metaDescription,
        keywords: post.seoKeywords,
        path: `/blog/${post.slug}`,
        image: socialImageUrl(post.featuredImage),
        imageAlt: `Illustration for "${post.title}"`,
        ogType: "article",
        article: { publishedTime: post.publishedAt, modifiedTime: post.updatedAt, tags: post.seoKeywords },
        jsonLd: (origin) => [blogPostingJsonLd(post, origin)],
      },
    });
  });
}

/** The published post with this slug, or undefined; a string that cannot be a slug is none. */
async function findPost(db: Database, slug: string) {
  if (slug.length > blogSlugMaxLength || !blogSlugPattern.test(slug)) return undefined;
  try {
    return await getBlogPost(db, slug);
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") return undefined;
    throw error;
  }
}
