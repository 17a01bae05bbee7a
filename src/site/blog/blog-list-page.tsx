import { ArrowRight } from "lucide-react";
import type { BlogPostSummary } from "../../shared/blog";
import { brand } from "../../shared/brand";
import { SiteLayout } from "../layout";
import { cardKeywordLimit, formatPublishedDate } from "./blog-format";
import { blogImageUrl } from "./blog-images";
import { KeywordList } from "./keyword-list";

export type BlogListPageProps = { posts: BlogPostSummary[] };

/** /blog (the BLIST requirements): the published posts as cards, newest first, and a trial banner. */
export function BlogListPage({ posts }: BlogListPageProps) {
  return (
    <SiteLayout>
      <div className="mx-auto w-full max-w-6xl px-4 py-12 sm:px-6 sm:py-16">
        <header className="max-w-2xl">
          <p className="font-semibold text-primary text-sm uppercase tracking-wide">{brand.name} blog</p>
          <h1 className="mt-2 font-semibold text-3xl text-foreground tracking-tight sm:text-4xl">Our Blog</h1>
          <p className="mt-4 text-lg text-muted-foreground leading-relaxed">
            Practical guides for accounting firms, law practices, consultancies, agencies and brokerages on keeping
            recurring client work on schedule and clients for the long term.
          </p>
        </header>

        {posts.length === 0 ? (
          <div className="mt-12 rounded-lg border border-border border-dashed bg-card px-6 py-16 text-center">
            <p className="font-medium text-foreground text-lg">No blog posts yet</p>
            <p className="mt-2 text-muted-foreground">New articles are on their way. Check back soon.</p>
          </div>
        ) : (
          <ul className="mt-12 grid gap-8 sm:grid-cols-2 lg:grid-cols-3">
            {posts.map((post) => (
              <li key={post.id} className="flex">
                <BlogCard post={post} />
              </li>
            ))}
          </ul>
        )}

        <TrialBanner />
      </div>
    </SiteLayout>
  );
}

function BlogCard({ post }: { post: BlogPostSummary }) {
  const titleId = `post-title-${post.slug}`;
  const href = `/blog/${post.slug}`;
  return (
    <article
      aria-labelledby={titleId}
      data-testid="blog-card"
      className="flex w-full flex-col overflow-hidden rounded-lg border border-border bg-card shadow-xs"
    >
      <img
        src={blogImageUrl(post.featuredImage)}
        alt=""
        width={1200}
        height={630}
        loading="lazy"
        decoding="async"
        className="aspect-[1200/630] w-full border-border border-b object-cover"
      />
      <div className="flex flex-1 flex-col p-6">
        <time dateTime={post.publishedAt} className="text-muted-foreground text-sm">
          {formatPublishedDate(post.publishedAt)}
        </time>
        <h2 id={titleId} className="mt-2 font-semibold text-foreground text-xl leading-snug">
          {post.title}
        </h2>
        <p className="mt-3 line-clamp-4 text-muted-foreground leading-relaxed">{post.introSummary}</p>
        <div className="mt-4">
          <KeywordList keywords={post.seoKeywords} limit={cardKeywordLimit} label="Keywords" countRest />
        </div>
        <div className="mt-auto pt-6">
          <a
            href={href}
            aria-describedby={titleId}
            className="inline-flex items-center gap-1.5 rounded-sm font-medium text-primary underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
          >
            Read Article
            <ArrowRight aria-hidden="true" className="size-4" />
          </a>
        </div>
      </div>
    </article>
  );
}

function TrialBanner() {
  return (
    <section
      aria-labelledby="blog-trial-title"
      className="mt-16 flex flex-col items-start gap-6 rounded-xl bg-primary px-6 py-10 text-primary-foreground sm:flex-row sm:items-center sm:justify-between sm:px-10"
    >
      <div className="max-w-xl">
        <h2 id="blog-trial-title" className="font-semibold text-2xl tracking-tight">
          Put these ideas to work in {brand.name}
        </h2>
        <p className="mt-2 text-primary-foreground/90 leading-relaxed">
          Try every feature free for 14 days: recurring work, client health, signed sign-offs and reports.
        </p>
      </div>
      <a
        href="/signup"
        className="inline-flex h-11 shrink-0 items-center rounded-md bg-card px-6 font-semibold text-primary shadow-xs outline-none transition-colors hover:bg-primary-subtle focus-visible:ring-2 focus-visible:ring-card focus-visible:ring-offset-2 focus-visible:ring-offset-primary"
      >
        Start Free Trial
      </a>
    </section>
  );
}
