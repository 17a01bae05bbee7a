import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiClient } from "../../../../tests/api-client";
import { useTestApp } from "../../../../tests/test-app";
import { type BlogPost, blogBlocks } from "../../../shared/blog";
import { siteDataId } from "../../../site/site-data";
import { blogPosts } from "../../platform/db/schema";

/*
 * The blog's pages as the server renders them (docs/design/blog-screens.md): what a crawler without
 * JavaScript receives, and the data the browser hydrates from.
 */

const tenKeywords = "recurring-compliance-calendar-for-accounting-firms";

function metaContent(html: string, key: string): string | undefined {
  const pattern = new RegExp(`<meta (?:name|property)="${key.replace(/[.:]/g, "\\$&")}" content="([^"]*)">`);
  return pattern.exec(html)?.[1];
}

const metaContents = (html: string, key: string) =>
  [
    ...html.matchAll(new RegExp(`<meta (?:name|property)="${key.replace(/[.:]/g, "\\$&")}" content="([^"]*)">`, "g")),
  ].map((match) => match[1]);

const jsonLdRecords = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1] ?? "") as Record<string, unknown>,
  );

const siteData = (html: string) =>
  JSON.parse(new RegExp(`<script type="application/json" id="${siteDataId}">(.*?)</script>`).exec(html)?.[1] ?? "");

const decode = (text: string) =>
  text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, "&");

/** The text a reader sees in the rendered root element: tags removed, entities decoded. */
function visibleText(html: string): string {
  const root = /<div id="root">(.*)<\/div><script type="application\/json"/s.exec(html)?.[1] ?? "";
  return decode(root.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, "\n"));
}

async function getPost(ctx: ReturnType<typeof useTestApp>, slug: string): Promise<BlogPost> {
  const response = await apiClient(ctx.app).get(`/api/blog/${slug}`);
  expect(response.status).toBe(200);
  return response.body as BlogPost;
}

describe("the blog pages, rendered on the server", () => {
  const ctx = useTestApp();

  it("S-BLIST-01 S-BLIST-04..10 S-BLIST-14: /blog is public HTML with every published post's card and the trial banner", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/blog", headers: { host: "crm.example.com" } });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    const html = response.body;
    const posts = (await apiClient(ctx.app).get("/api/blog")).body as BlogPost[];
    expect(posts.length).toBeGreaterThanOrEqual(6);
    const text = visibleText(html);
    for (const post of posts) {
      expect(text).toContain(post.title);
      expect(text).toContain(post.introSummary);
      expect(html).toContain(`href="/blog/${post.slug}"`);
      expect(html).toContain(`src="/blog-images/${post.featuredImage}"`);
    }
    expect(text.match(/Read Article/g)).toHaveLength(posts.length);
    expect(text).toContain("+7 more");
    expect(text).toContain("October 5, 2026");
    expect(html).toContain('href="/signup"');
    expect(text).toContain("Start Free Trial");
    for (const link of ["Our Blog", "Sign In", "Get Started"]) expect(text).toContain(link);
    // The page's data is GET /api/blog's answer, in its order.
    expect(siteData(html)).toEqual({ page: "blogList", props: { posts } });

    expect(html).toContain("<title>Blog | Tendwell</title>");
    expect(metaContent(html, "description")).toMatch(/^Practical guides from Tendwell/);
    expect(metaContent(html, "robots")).toBe("index, follow");
    expect(html).toContain('<link rel="canonical" href="http://crm.example.com/blog">');
    expect(metaContent(html, "og:url")).toBe("http://crm.example.com/blog");
    // The newest post's picture, as its PNG twin: link previews do not show SVG.
    expect(metaContent(html, "og:image")).toBe(
      `http://crm.example.com/blog-images/${posts[0]?.featuredImage.replace(/\.svg$/, ".png")}`,
    );
    const [blog, ...others] = jsonLdRecords(html);
    expect(others).toEqual([]);
    expect(blog).toMatchObject({
      "@context": "https://schema.org",
      "@type": "Blog",
      url: "http://crm.example.com/blog",
      publisher: { "@type": "Organization", name: "Tendwell" },
    });
    expect(((blog?.blogPost ?? []) as { url: string }[]).map((entry) => entry.url)).toEqual(
      posts.map((post) => `http://crm.example.com/blog/${post.slug}`),
    );
  });

  it("S-BPOST-01 S-BPOST-06..10 S-BPOST-12..15: a post's HTML holds the whole article, its image, date and eight keywords", async () => {
    const post = await getPost(ctx, tenKeywords);
    expect(post.seoKeywords).toHaveLength(10);
    const response = await ctx.app.inject({ method: "GET", url: `/blog/${tenKeywords}` });
    expect(response.statusCode).toBe(200);
    const html = response.body;
    const text = visibleText(html);
    expect(text).toContain(post.title);
    expect(text).toContain(post.introSummary);
    expect(text).toContain("October 5, 2026");
    expect(html).toContain('src="/blog-images/compliance-calendar.svg"');
    // Every block of the body, in order, with the light format's markers gone.
    const blocks = blogBlocks(post.fullContent);
    expect(blocks.length).toBeGreaterThan(20);
    let from = 0;
    for (const block of blocks) {
      const at = text.indexOf(block.text, from);
      expect(at, block.text).toBeGreaterThanOrEqual(0);
      from = at + block.text.length;
    }
    expect(html.match(/<h2 /g)?.length).toBeGreaterThanOrEqual(blocks.filter((b) => b.kind === "heading").length);
    expect(html).toContain("<ul");
    expect(html).toContain("<ol");
    expect(text).not.toMatch(/^(### |- |\d+\. )/m);
    // Eight keywords of ten on the page, no "+N more" there.
    for (const keyword of post.seoKeywords.slice(0, 8)) expect(text).toContain(keyword);
    for (const keyword of post.seoKeywords.slice(8)) expect(text).not.toContain(keyword);
    expect(text).not.toMatch(/\+\d+ more/);
    expect(siteData(html)).toEqual({ page: "blogPost", props: { post } });
  });

  it("S-BPOST-02 S-BPOST-03 S-BPOST-04: a post's title, description, keywords, canonical, Open Graph and Twitter tags", async () => {
    const post = await getPost(ctx, tenKeywords);
    const html = (
      await ctx.app.inject({ method: "GET", url: `/blog/${tenKeywords}`, headers: { host: "crm.example.com" } })
    ).body;
    const url = `http://crm.example.com/blog/${tenKeywords}`;
    expect(html).toContain(
      "<title>Building a recurring compliance calendar your accounting firm can trust | Tendwell Blog</title>",
    );
    expect(metaContent(html, "description")).toBe(post.metaDescription);
    expect(metaContent(html, "keywords")).toBe(post.seoKeywords.join(", "));
    expect(metaContent(html, "robots")).toBe("index, follow");
    expect(html).toContain(`<link rel="canonical" href="${url}">`);
    expect(metaContent(html, "og:type")).toBe("article");
    expect(metaContent(html, "og:title")).toBe(`${post.title} | Tendwell Blog`);
    expect(metaContent(html, "og:description")).toBe(post.metaDescription);
    expect(metaContent(html, "og:url")).toBe(url);
    expect(metaContent(html, "og:image")).toBe("http://crm.example.com/blog-images/compliance-calendar.png");
    expect(metaContent(html, "article:published_time")).toBe(post.publishedAt);
    expect(metaContent(html, "article:modified_time")).toBe(post.updatedAt);
    expect(metaContents(html, "article:tag")).toEqual(post.seoKeywords);
    expect(metaContent(html, "twitter:card")).toBe("summary_large_image");
    expect(metaContent(html, "twitter:title")).toBe(`${post.title} | Tendwell Blog`);
    expect(metaContent(html, "twitter:image")).toBe("http://crm.example.com/blog-images/compliance-calendar.png");
  });

  it("S-BPOST-05: a post's JSON-LD is a BlogPosting with its headline, dates, image, keywords and the Organization", async () => {
    const post = await getPost(ctx, tenKeywords);
    const html = (
      await ctx.app.inject({ method: "GET", url: `/blog/${tenKeywords}`, headers: { host: "crm.example.com" } })
    ).body;
    const [record, ...others] = jsonLdRecords(html);
    expect(others).toEqual([]);
    const organization = { "@type": "Organization", name: "Tendwell", url: "http://crm.example.com/" };
    expect(record).toMatchObject({
      "@context": "https://schema.org",
      "@type": "BlogPosting",
      headline: post.title,
      description: post.metaDescription,
      image: ["http://crm.example.com/blog-images/compliance-calendar.png"],
      datePublished: post.publishedAt,
      dateModified: post.updatedAt,
      author: organization,
      publisher: organization,
      keywords: post.seoKeywords.join(", "),
      mainEntityOfPage: { "@type": "WebPage", "@id": `http://crm.example.com/blog/${tenKeywords}` },
    });
  });

  it("S-BPOST-16 S-ERR-28: an unknown or impossible slug is a 404 page, Blog Post Not Found, not indexed", async () => {
    for (const slug of ["no-such-post", "Quarterly-Client-Reviews", "..%2F..%2Fpackage.json", "a".repeat(100)]) {
      const response = await ctx.app.inject({ method: "GET", url: `/blog/${slug}` });
      expect(response.statusCode, slug).toBe(404);
      expect(response.headers["content-type"], slug).toBe("text/html; charset=utf-8");
      const text = visibleText(response.body);
      expect(text).toContain("Blog Post Not Found");
      expect(text).toContain("The blog post you're looking for doesn't exist.");
      expect(metaContent(response.body, "robots")).toBe("noindex, follow");
      expect(siteData(response.body)).toEqual({ page: "blogPostNotFound", props: {} });
    }
  });

  it("a post dated ahead is not shown before its time", async () => {
    await ctx.database.db
      .update(blogPosts)
      .set({ publishedAt: new Date(Date.now() + 86_400_000) })
      .where(eq(blogPosts.slug, "quarterly-client-reviews"));
    const page = await ctx.app.inject({ method: "GET", url: "/blog/quarterly-client-reviews" });
    expect(page.statusCode).toBe(404);
    const list = await ctx.app.inject({ method: "GET", url: "/blog" });
    expect(list.body).not.toContain('href="/blog/quarterly-client-reviews"');
  });

  it("/blog/ points to /blog", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/blog/" });
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe("/blog");
  });
});

describe("the blog pages with edited rows", () => {
  const ctx = useTestApp();

  it("a post whose title holds </script> cannot break out of the data or JSON-LD scripts", async () => {
    const title = `Escaping </script><script>alert("x")</script><!-- & more`;
    await ctx.database.db.update(blogPosts).set({ title }).where(eq(blogPosts.slug, tenKeywords));
    const html = (await ctx.app.inject({ method: "GET", url: `/blog/${tenKeywords}` })).body;
    expect(html).not.toContain("<script>alert");
    // Each script element ends where it should: the data still parses back to the exact title.
    expect(siteData(html).props.post.title).toBe(title);
    expect(jsonLdRecords(html)[0]?.headline).toBe(title);
    expect(html).toContain(`<title>Escaping &lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)`);
    expect(visibleText(html)).toContain(title);
    const list = (await ctx.app.inject({ method: "GET", url: "/blog" })).body;
    expect(list).not.toContain("<script>alert");
    expect(siteData(list).props.posts.map((post: BlogPost) => post.title)).toContain(title);
  });

  it("S-BLIST-13: a post whose image file is missing still shows an image (the default)", async () => {
    await ctx.database.db
      .update(blogPosts)
      .set({ featuredImage: "software-image2.png" })
      .where(eq(blogPosts.slug, "client-health-signals-and-retention"));
    await ctx.database.db
      .update(blogPosts)
      .set({ featuredImage: "../../package.json" })
      .where(eq(blogPosts.slug, "client-onboarding-first-30-days"));
    const list = (await ctx.app.inject({ method: "GET", url: "/blog" })).body;
    expect(list).toContain('src="/blog-images/software-image2.png"');
    expect(list).toContain('src="/blog-images/default.svg"');
    const image = await ctx.app.inject({ method: "GET", url: "/blog-images/software-image2.png" });
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toBe("image/svg+xml");
    const fallback = await ctx.app.inject({ method: "GET", url: "/blog-images/default.svg" });
    expect(image.body).toBe(fallback.body);
    const post = (await ctx.app.inject({ method: "GET", url: "/blog/client-onboarding-first-30-days" })).body;
    expect(post).toContain('src="/blog-images/default.svg"');
    expect(metaContent(post, "og:image")).toMatch(/\/blog-images\/default\.png$/);
  });

  it('S-BLIST-11: with no posts /blog says "No blog posts yet"', async () => {
    await ctx.database.db.delete(blogPosts);
    const response = await ctx.app.inject({ method: "GET", url: "/blog" });
    expect(response.statusCode).toBe(200);
    expect(visibleText(response.body)).toContain("No blog posts yet");
    expect(response.body).not.toContain("Read Article");
    expect(siteData(response.body)).toEqual({ page: "blogList", props: { posts: [] } });
    expect(jsonLdRecords(response.body)[0]).toMatchObject({ "@type": "Blog", blogPost: [] });
  });
});
