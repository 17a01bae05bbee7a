import { ArrowLeft } from "lucide-react";
import type { BlogPost } from "../../shared/blog";
import { blogBlocks } from "../../shared/blog-text";
import { SiteLayout } from "../layout";
import { formatPublishedDate, groupBlocks, postKeywordLimit } from "./blog-format";
import { blogImageUrl } from "./blog-images";
import { KeywordList } from "./keyword-list";
import { ShareButton } from "./share-button";

const backLinkClass =
  "inline-flex items-center gap-1.5 rounded-sm font-medium text-primary text-sm underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2";

/**
 * /blog/{slug} (the BPOST requirements): the article, set for reading: a measure of about 68 characters,
 * a 17-18 px body with generous leading, and the body's light format (blogBlocks) as headings,
 * lists and paragraphs.
 */
export type BlogPostPageProps = { post: BlogPost };

export function BlogPostPage({ post }: BlogPostPageProps) {
  return (
    <SiteLayout>
      <article className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
        <a href="/blog" className={backLinkClass}>
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to Blog
        </a>
        <header className="mt-6">
          <time dateTime={post.publishedAt} className="text-muted-foreground text-sm">
            {formatPublishedDate(post.publishedAt)}
          </time>
          <h1 className="mt-2 text-balance font-semibold text-3xl text-foreground leading-tight tracking-tight sm:text-4xl">
            {post.title}
          </h1>
          <p className="mt-5 max-w-[68ch] text-foreground/80 text-lg leading-relaxed sm:text-xl">{post.introSummary}</p>
          <div className="mt-6 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
            <KeywordList keywords={post.seoKeywords} limit={postKeywordLimit} label="Keywords" />
            <ShareButton title={post.title} text={post.introSummary} />
          </div>
        </header>
        <img
          src={blogImageUrl(post.featuredImage)}
          alt=""
          width={1200}
          height={630}
          fetchPriority="high"
          className="mt-8 aspect-[1200/630] w-full rounded-lg border border-border object-cover"
        />
        <BlogBody body={post.fullContent} />
        <footer className="mt-12 border-border border-t pt-6">
          <a href="/blog" className={backLinkClass}>
            <ArrowLeft aria-hidden="true" className="size-4" />
            Back to Blog
          </a>
        </footer>
      </article>
    </SiteLayout>
  );
}

/** The body in the light format of S-BPOST-12..15; consecutive list items of one kind form one list. */
export function BlogBody({ body }: { body: string }) {
  return (
    <div data-testid="blog-body" className="mt-10 max-w-[68ch] text-[1.0625rem] text-foreground/90 leading-[1.75]">
      {groupBlocks(blogBlocks(body)).map((group) => {
        const { key } = group;
        switch (group.kind) {
          case "heading":
            return (
              <h2 key={key} className="mt-10 mb-3 font-semibold text-2xl text-foreground leading-snug tracking-tight">
                {group.text}
              </h2>
            );
          case "paragraph":
            return (
              <p key={key} className="my-5">
                {group.text}
              </p>
            );
          case "bullets":
            return (
              <ul key={key} className="my-5 list-disc space-y-2 pl-6 marker:text-primary">
                {group.items.map((item) => (
                  <li key={item.key} className="pl-1">
                    {item.text}
                  </li>
                ))}
              </ul>
            );
          default:
            return (
              <ol key={key} className="my-5 list-decimal space-y-2 pl-6 marker:font-medium marker:text-primary">
                {group.items.map((item) => (
                  <li key={item.key} className="pl-1">
                    {item.text}
                  </li>
                ))}
              </ol>
            );
        }
      })}
    </div>
  );
}

/** An unknown slug (S-BPOST-16, S-ERR-28); the server answers it with a 404 status. */
export function BlogPostNotFoundPage() {
  return (
    <SiteLayout>
      <div className="mx-auto w-full max-w-2xl px-4 py-24 text-center sm:px-6">
        <h1 className="font-semibold text-3xl text-foreground tracking-tight">Blog Post Not Found</h1>
        <p className="mt-4 text-lg text-muted-foreground">The blog post you're looking for doesn't exist.</p>
        <a
          href="/blog"
          className="mt-8 inline-flex h-10 items-center rounded-md bg-primary px-5 font-medium text-primary-foreground shadow-xs outline-none transition-colors hover:bg-primary-hover focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
        >
          Browse all articles
        </a>
      </div>
    </SiteLayout>
  );
}
