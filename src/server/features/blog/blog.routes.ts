import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { blogPostSchema, blogPostSummarySchema, blogSlugMaxLength, blogSlugPattern } from "../../../shared/blog";
import type { Database } from "../../platform/db/database";
import type { ZodTypeProvider } from "../../platform/http";
import { getBlogPost, listBlogPosts } from "./blog.service";

/** A slug in a path: anything that cannot be a slug is answered like an unknown one (404). */
const slugParams = z.object({
  slug: z.string().max(blogSlugMaxLength, "Blog post not found").regex(blogSlugPattern, "Blog post not found"),
});

export function blogRoutes(app: FastifyInstance, { db }: { db: Database }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/blog",
    {
      config: { access: "public" },
      schema: {
        summary: "The published blog posts, newest first (no body: see GET /api/blog/{slug})",
        response: { 200: z.array(blogPostSummarySchema) },
      },
    },
    async () => listBlogPosts(db),
  );

  api.get(
    "/api/blog/:slug",
    {
      config: { access: "public" },
      schema: {
        summary: "One published blog post with its body; an unknown slug is a 404",
        params: slugParams,
        response: { 200: blogPostSchema },
      },
    },
    async (request) => getBlogPost(db, request.params.slug),
  );
}
