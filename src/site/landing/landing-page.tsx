import {
  Briefcase,
  Calculator,
  ChartColumn,
  Check,
  Clock,
  Eye,
  Handshake,
  HeartHandshake,
  House,
  Library,
  type LucideIcon,
  Megaphone,
  Repeat,
  Rocket,
  Scale,
  ShieldCheck,
  Signature,
  Star,
  TrendingUp,
  Users,
  X,
} from "lucide-react";
import { brand } from "../../shared/brand";
import { type Plan, planIds, plans, trialDays } from "../../shared/plans";
import { Island } from "../island";
import { SiteLayout } from "../layout";
import { ButtonLink, SectionHeading } from "../ui";
import { HeroCarousel } from "./hero-carousel";
import { benefits, comparison, features, industries, showcases, testimonials } from "./landing-copy";
import { screenshotHeight, screenshotSrc, screenshotSrcSet, screenshotWidth } from "./screenshots";

/** The landing page takes no data: everything on it is the product's own copy and plans. */
export type LandingPageProps = Record<string, never>;

const icons: Record<string, LucideIcon> = {
  health: HeartHandshake,
  repeat: Repeat,
  library: Library,
  signature: Signature,
  analytics: ChartColumn,
  access: ShieldCheck,
  accounting: Calculator,
  legal: Scale,
  consulting: Briefcase,
  marketing: Megaphone,
  realEstate: House,
  other: Handshake,
  retention: TrendingUp,
  deadlines: Clock,
  onboarding: Users,
  audit: ShieldCheck,
  visibility: Eye,
  setup: Rocket,
};

function CardIcon({ name }: { name: string }) {
  const Icon = icons[name] ?? Check;
  return (
    <span className="inline-flex size-11 items-center justify-center rounded-lg bg-primary-subtle text-primary-subtle-foreground">
      <Icon className="size-5" aria-hidden="true" />
    </span>
  );
}

const trialLine = `${trialDays}-day free trial with full features`;

/** The landing page (the LAND requirements): its sections in S-LAND-33's order, inside the public layout. */
export function LandingPage(_props: LandingPageProps) {
  return (
    <SiteLayout>
      <Hero />
      <NoDemoBanner />
      <Comparison />
      <Features />
      <Industries />
      <Showcases />
      <Benefits />
      <Testimonials />
      <Pricing />
      <NoDemoRequired />
      <ClosingCallToAction />
    </SiteLayout>
  );
}

function Hero() {
  return (
    <section
      data-section="hero"
      aria-labelledby="hero-title"
      className="overflow-hidden bg-gradient-to-b from-primary-subtle/70 to-background"
    >
      <div className="mx-auto max-w-6xl px-4 pt-14 pb-12 sm:px-6 md:pt-20">
        <div className="mx-auto max-w-3xl text-center">
          <p className="inline-flex items-center gap-2 rounded-full border border-primary/20 bg-card px-3 py-1 text-sm font-medium text-primary-subtle-foreground">
            Client retention software for professional service firms
          </p>
          <h1 id="hero-title" className="mt-5 text-4xl font-bold tracking-tight text-balance sm:text-5xl lg:text-6xl">
            {brand.tagline}
          </h1>
          <p className="mt-5 text-lg text-pretty text-secondary-foreground sm:text-xl">
            {brand.name} gives accounting, legal, consulting, marketing and real-estate firms one calm place for client
            health, recurring work and signed records, so no client slips away unnoticed.
          </p>
          <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
            <div className="hidden md:block">
              <ButtonLink href="/login" size="lg" data-testid="hero-cta-desktop">
                Get Started Now
              </ButtonLink>
            </div>
            <ButtonLink href="/signup" size="lg" data-testid="hero-cta-mobile" className="w-full sm:w-auto md:hidden">
              Start Your Free Trial
            </ButtonLink>
            <div className="hidden md:block">
              <ButtonLink href="/#showcases" size="lg" variant="secondary">
                See the product
              </ButtonLink>
            </div>
          </div>
          <p className="mt-4 hidden text-sm text-muted-foreground md:block">
            {trialLine}. No demo or sales call needed.
          </p>
          <a
            href="/signup"
            data-testid="mobile-trial-line"
            className="mt-4 inline-flex min-h-10 items-center text-sm font-medium text-primary underline underline-offset-4 md:hidden"
          >
            {trialLine}. No demo or sales call needed.
          </a>
        </div>
        <div className="mt-12">
          <Island name="hero-carousel">
            <HeroCarousel />
          </Island>
        </div>
      </div>
    </section>
  );
}

function NoDemoBanner() {
  return (
    <section data-section="no-demo-banner" aria-label="No demo needed" className="bg-primary text-primary-foreground">
      <div className="mx-auto flex max-w-6xl flex-col items-center justify-center gap-3 px-4 py-5 text-center sm:flex-row sm:gap-6 sm:px-6">
        <p className="font-medium">No demo. No sales call. Sign up and use every feature free for {trialDays} days.</p>
        <ButtonLink href="/signup" variant="inverse" className="shrink-0">
          Start free trial
        </ButtonLink>
      </div>
    </section>
  );
}

function Comparison() {
  return (
    <section data-section="comparison" aria-labelledby="comparison-title" className="py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          id="comparison-title"
          eyebrow="Why Tendwell"
          title="Traditional CRMs chase deals. Tendwell keeps clients."
        >
          Sales CRMs are built for pipelines. Professional firms live on recurring work and long relationships, and need
          a tool built for that.
        </SectionHeading>
        <div className="mt-12 grid gap-6 md:grid-cols-2">
          <div className="rounded-xl border bg-card p-6 sm:p-8">
            <h3 className="text-lg font-semibold text-secondary-foreground">Traditional CRMs</h3>
            <ul className="mt-5 space-y-4">
              {comparison.traditional.map((line) => (
                <li key={line} className="flex gap-3 text-muted-foreground">
                  <X className="mt-1 size-5 shrink-0 text-destructive" aria-hidden="true" />
                  <span>{line}</span>
                </li>
              ))}
            </ul>
          </div>
          <div className="rounded-xl border-2 border-primary/40 bg-card p-6 shadow-md sm:p-8">
            <h3 className="text-lg font-semibold text-primary-subtle-foreground">{brand.name}</h3>
            <ul className="mt-5 space-y-4">
              {comparison.tendwell.map((line) => (
                <li key={line} className="flex gap-3">
                  <Check className="mt-1 size-5 shrink-0 text-primary" aria-hidden="true" />
                  <span>{line}</span>
                </li>
              ))}
            </ul>
          </div>
        </div>
      </div>
    </section>
  );
}

function CardGrid({ items, testId }: { items: { icon: string; title: string; text: string }[]; testId: string }) {
  return (
    <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {items.map((item) => (
        <li key={item.title} data-testid={testId} className="rounded-xl border bg-card p-6 shadow-xs">
          <CardIcon name={item.icon} />
          <h3 className="mt-4 text-lg font-semibold">{item.title}</h3>
          <p className="mt-2 text-muted-foreground">{item.text}</p>
        </li>
      ))}
    </ul>
  );
}

function Features() {
  return (
    <section id="features" data-section="features" aria-labelledby="features-title" className="bg-muted py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          id="features-title"
          eyebrow="Features"
          title="Everything a firm needs to keep clients for years"
        >
          From the first engagement to the tenth annual review: health, recurring work, templates, signatures, analytics
          and access control in one product.
        </SectionHeading>
        <CardGrid items={features} testId="feature-card" />
      </div>
    </section>
  );
}

function Industries() {
  return (
    <section id="industries" data-section="industries" aria-labelledby="industries-title" className="py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          id="industries-title"
          eyebrow="Who it's for"
          title="Made for firms that live on long relationships"
        >
          Tendwell's templates and defaults come from the way these firms already work.
        </SectionHeading>
        <CardGrid items={industries} testId="industry-card" />
      </div>
    </section>
  );
}

function Showcases() {
  return (
    <section
      id="showcases"
      data-section="showcases"
      aria-labelledby="showcases-title"
      className="bg-muted py-20 sm:py-24"
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading id="showcases-title" eyebrow="Product tour" title="See how Tendwell works">
          Real screens from the product, with a sample firm's data.
        </SectionHeading>
        <div className="mt-14 space-y-20">
          {showcases.map((showcase, index) => (
            <article
              key={showcase.id}
              data-testid="showcase"
              aria-labelledby={`showcase-${showcase.id}`}
              className="grid items-center gap-8 lg:grid-cols-2 lg:gap-14"
            >
              <div className={index % 2 === 1 ? "lg:order-2" : undefined}>
                <h3 id={`showcase-${showcase.id}`} className="text-2xl font-bold tracking-tight sm:text-3xl">
                  {showcase.title}
                </h3>
                <p className="mt-4 text-lg text-muted-foreground">{showcase.text}</p>
                <ul className="mt-6 space-y-3">
                  {showcase.points.map((point) => (
                    <li key={point} className="flex gap-3">
                      <Check className="mt-1 size-5 shrink-0 text-primary" aria-hidden="true" />
                      <span>{point}</span>
                    </li>
                  ))}
                </ul>
              </div>
              <img
                src={screenshotSrc(showcase.image)}
                srcSet={screenshotSrcSet(showcase.image)}
                sizes="(min-width: 1024px) 560px, 92vw"
                width={screenshotWidth}
                height={screenshotHeight}
                alt={showcase.alt}
                loading="lazy"
                decoding="async"
                className="h-auto w-full rounded-xl border bg-card shadow-lg"
              />
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}

function Benefits() {
  return (
    <section data-section="benefits" aria-labelledby="benefits-title" className="py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading id="benefits-title" eyebrow="Benefits" title="What changes when your firm runs on Tendwell">
          Less chasing, fewer surprises and clients who stay.
        </SectionHeading>
        <CardGrid items={benefits} testId="benefit-card" />
      </div>
    </section>
  );
}

function Stars() {
  return (
    <div role="img" aria-label="Rated 5 out of 5 stars" data-testid="star-rating" className="flex gap-0.5 text-warning">
      {[1, 2, 3, 4, 5].map((star) => (
        <Star key={star} className="size-5 fill-current" aria-hidden="true" />
      ))}
    </div>
  );
}

function Testimonials() {
  return (
    <section
      id="testimonials"
      data-section="testimonials"
      aria-labelledby="testimonials-title"
      className="bg-muted py-20 sm:py-24"
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          id="testimonials-title"
          eyebrow="Customers"
          title="Firms that stopped losing clients to silence"
        />
        <ul className="mt-12 grid gap-6 lg:grid-cols-3">
          {testimonials.map((testimonial) => (
            <li
              key={testimonial.name}
              data-testid="testimonial"
              className="flex flex-col rounded-xl border bg-card p-6 shadow-xs"
            >
              <Stars />
              <blockquote className="mt-4 flex-1 text-secondary-foreground">“{testimonial.quote}”</blockquote>
              <p className="mt-6 font-semibold">{testimonial.name}</p>
              <p className="text-sm text-muted-foreground">{testimonial.role}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

const usd = (amount: number) => `$${amount.toFixed(2)}`;

/** S-CONST-09, S-CONST-13: "$1.49 per client" when it divides evenly, else "about $1.00 per client". */
export function perClientLine(plan: Plan): string | null {
  if (plan.maxClients === null) return null;
  const exact = plan.monthlyPriceUsd / plan.maxClients;
  const rounded = Math.round(exact * 100) / 100;
  return rounded === exact ? `${usd(rounded)} per client` : `about ${usd(rounded)} per client`;
}

function planLines(plan: Plan): string[] {
  const lines = [
    plan.maxClients === null ? "Unlimited clients" : `Up to ${plan.maxClients} clients`,
    plan.maxCustomTemplates === null
      ? "Unlimited custom task templates"
      : `Up to ${plan.maxCustomTemplates} custom task templates`,
    "Unlimited users",
    "Full features",
    "Role-based access",
  ];
  if (plan.id === "enterprise")
    lines.push("Priority phone support", "Custom integrations", "Dedicated account manager");
  else lines.push(plan.support);
  return lines;
}

function Pricing() {
  return (
    <section id="pricing" data-section="pricing" aria-labelledby="pricing-title" className="py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading id="pricing-title" eyebrow="Pricing" title="Simple monthly pricing. Unlimited users.">
          Every plan includes every feature and unlimited users. Billed monthly, cancel anytime, no setup fees or
          contracts.
        </SectionHeading>
        <ul className="mt-12 grid gap-6 lg:grid-cols-3">
          {planIds.map((id) => {
            const plan = plans[id];
            const perClient = perClientLine(plan);
            return (
              <li
                key={id}
                data-testid="plan-card"
                data-plan={id}
                className={
                  plan.popular
                    ? "relative flex flex-col rounded-xl border-2 border-primary bg-card p-7 shadow-lg"
                    : "relative flex flex-col rounded-xl border bg-card p-7 shadow-xs"
                }
              >
                {plan.popular && (
                  <p className="absolute -top-3.5 left-1/2 -translate-x-1/2 rounded-full bg-primary px-3 py-1 text-xs font-semibold text-primary-foreground">
                    Most Popular
                  </p>
                )}
                <h3 className="text-xl font-semibold">{plan.name}</h3>
                <p className="mt-1 text-sm text-muted-foreground">{plan.description}</p>
                <p className="mt-5 flex items-baseline gap-1">
                  <span className="text-4xl font-bold tracking-tight">${plan.monthlyPriceUsd}</span>
                  <span className="text-muted-foreground">/month</span>
                </p>
                <p className="mt-1 min-h-6 text-sm font-medium text-primary-subtle-foreground">
                  {perClient ?? "Unlimited clients and templates"}
                </p>
                <ul className="mt-6 flex-1 space-y-3">
                  {planLines(plan).map((line) => (
                    <li key={line} className="flex gap-3 text-sm">
                      <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                      <span>{line}</span>
                    </li>
                  ))}
                </ul>
                <ButtonLink
                  href="/signup"
                  variant={plan.popular ? "primary" : "secondary"}
                  size="lg"
                  className="mt-8"
                  aria-label={`Start your free trial on ${plan.name}`}
                >
                  Start Free Trial
                </ButtonLink>
              </li>
            );
          })}
        </ul>
        <p className="mt-8 text-center text-sm text-muted-foreground">
          Billed monthly · Cancel anytime · No setup fees or contracts · {trialLine}
        </p>
      </div>
    </section>
  );
}

function NoDemoRequired() {
  return (
    <section data-section="no-demo" aria-labelledby="no-demo-title" className="bg-muted py-20 sm:py-24">
      <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 sm:px-6 lg:grid-cols-2">
        <div>
          <h2 id="no-demo-title" className="text-3xl font-bold tracking-tight sm:text-4xl">
            No Demo Required
          </h2>
          <p className="mt-4 text-lg text-muted-foreground">
            You should not need a sales call to find out whether software fits your firm. Create an account, add a few
            clients and see Tendwell with your own work. No demo or sales call needed, ever.
          </p>
          <ButtonLink href="/signup" size="lg" className="mt-8" data-testid="no-demo-cta">
            Try It Yourself, Free
          </ButtonLink>
        </div>
        <ol className="space-y-4">
          {[
            ["Create your account", "Name your firm and choose a plan. It takes two minutes."],
            ["Add your clients", "Enter them one by one or import the list you already keep."],
            ["Put work on repeat", "Pick templates from the library and let Tendwell schedule the rest."],
          ].map(([title, text], index) => (
            <li key={title} className="flex gap-4 rounded-xl border bg-card p-5">
              <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary font-semibold text-primary-foreground">
                {index + 1}
              </span>
              <div>
                <h3 className="font-semibold">{title}</h3>
                <p className="text-muted-foreground">{text}</p>
              </div>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

function ClosingCallToAction() {
  return (
    <section data-section="closing-cta" aria-labelledby="closing-title" className="py-20 sm:py-24">
      <div className="mx-auto max-w-4xl px-4 sm:px-6">
        <div className="rounded-2xl bg-primary px-6 py-14 text-center text-primary-foreground shadow-lg sm:px-12">
          <h2 id="closing-title" className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">
            Give every client the follow-through they expect
          </h2>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-primary-foreground/90">
            Start your {trialLine} today. Retention analytics, role-based access, audit reports and 50+ task templates
            are all included.
          </p>
          <ButtonLink href="/signup" size="lg" variant="inverse" className="mt-8">
            Start Your Free Trial
          </ButtonLink>
        </div>
      </div>
    </section>
  );
}
