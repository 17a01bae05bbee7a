import { Menu, X } from "lucide-react";
import { type MouseEvent, type ReactNode, useRef } from "react";
import { brand } from "../shared/brand";
import { Island } from "./island";
import { ButtonLink, LogoMark } from "./ui";

/**
 * The frame of every public page (S-LAND-03..08, S-BLIST-02..03): a sticky header whose logo
 * scrolls to the top, the links Our Blog, Sign In and Get Started (in a slide-in side menu on small
 * screens), the page, and the footer.
 */
export function SiteLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-card px-4 py-2 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <Island name="site-header">
        <SiteHeader />
      </Island>
      <main id="main" className="flex-1">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}

const headerLinks = [
  { href: "/blog", label: "Our Blog" },
  { href: "/login", label: "Sign In" },
] as const;

/** On the landing page the logo scrolls back up; elsewhere it is a plain link home. */
function scrollToTop(event: MouseEvent<HTMLAnchorElement>) {
  if (window.location.pathname !== "/") return;
  event.preventDefault();
  window.scrollTo({ top: 0, behavior: "smooth" });
}

/** The sticky header with its mobile menu: an island, hydrated on its own on the landing page. */
export function SiteHeader() {
  const menu = useRef<HTMLDialogElement>(null);
  return (
    <header
      data-testid="site-header"
      className="sticky top-0 z-40 border-b border-border/70 bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75"
    >
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <a
          href="/"
          onClick={scrollToTop}
          data-testid="site-logo"
          className="flex min-h-10 items-center gap-2.5 rounded-md text-lg font-bold tracking-tight focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          <LogoMark />
          {brand.name}
        </a>
        <nav aria-label="Main" className="hidden items-center gap-2 md:flex">
          {headerLinks.map((link) => (
            <a
              key={link.href}
              href={link.href}
              className="inline-flex min-h-10 items-center rounded-md px-3 text-sm font-medium text-secondary-foreground hover:bg-muted hover:text-foreground"
            >
              {link.label}
            </a>
          ))}
          <ButtonLink href="/signup" className="ml-2">
            Get Started
          </ButtonLink>
        </nav>
        <button
          type="button"
          aria-label="Open menu"
          aria-haspopup="dialog"
          onClick={() => menu.current?.showModal()}
          className="inline-flex size-11 items-center justify-center rounded-md text-foreground hover:bg-muted md:hidden"
        >
          <Menu className="size-6" aria-hidden="true" />
        </button>
      </div>
      <MobileMenu dialog={menu} />
    </header>
  );
}

/** The side menu of small screens: a native modal dialog (focus trap, Escape) sliding in from the right. */
function MobileMenu({ dialog }: { dialog: React.RefObject<HTMLDialogElement | null> }) {
  const close = () => dialog.current?.close();
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop closes; keys have Escape and the Close button
    <dialog
      ref={dialog}
      aria-label="Menu"
      data-testid="mobile-menu"
      onClick={(event) => {
        if (event.target === event.currentTarget) close();
      }}
      className="fixed inset-y-0 right-0 left-auto m-0 h-dvh max-h-dvh w-[min(20rem,85vw)] max-w-none animate-slide-in-right bg-card p-0 text-foreground shadow-lg"
    >
      <div className="flex h-full flex-col gap-2 p-5">
        <div className="flex items-center justify-between">
          <span className="flex items-center gap-2 font-bold">
            <LogoMark className="size-7" />
            {brand.name}
          </span>
          <button
            type="button"
            aria-label="Close menu"
            onClick={close}
            className="inline-flex size-11 items-center justify-center rounded-md hover:bg-muted"
          >
            <X className="size-6" aria-hidden="true" />
          </button>
        </div>
        <nav aria-label="Mobile" className="mt-4 flex flex-col gap-1">
          {headerLinks.map((link) => (
            <a
              key={link.href}
              href={link.href}
              className="flex min-h-12 items-center rounded-md px-3 text-base font-medium hover:bg-muted"
            >
              {link.label}
            </a>
          ))}
          <ButtonLink href="/signup" size="lg" className="mt-3">
            Get Started
          </ButtonLink>
        </nav>
      </div>
    </dialog>
  );
}

const footerGroups = [
  {
    title: "Product",
    links: [
      { href: "/#features", label: "Features" },
      { href: "/#showcases", label: "Product tour" },
      { href: "/#pricing", label: "Pricing" },
      { href: "/signup", label: "Start free trial" },
    ],
  },
  {
    title: "Company",
    links: [
      { href: "/#industries", label: "Who it's for" },
      { href: "/#testimonials", label: "Customers" },
      { href: "/blog", label: "Our Blog" },
    ],
  },
  {
    title: "Support",
    links: [
      { href: `mailto:${brand.supportEmail}`, label: "Email support" },
      { href: `mailto:${brand.contactEmail}`, label: "Contact us" },
      { href: "/blog", label: "Guides and articles" },
    ],
  },
] as const;

/** The legal documents are not published yet: their links point nowhere (S-LAND-36, decision 0022). */
const legalLinks = ["Privacy Policy", "Terms of Service", "Cookie Policy"] as const;

function SiteFooter() {
  return (
    <footer data-section="footer" className="border-t bg-card">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-[1.4fr_repeat(3,1fr)]">
        <div>
          <p className="flex items-center gap-2.5 text-lg font-bold">
            <LogoMark />
            {brand.name}
          </p>
          <p className="mt-3 max-w-xs text-sm text-muted-foreground">
            {brand.tagline}. Client health, recurring work and signed records for professional service firms.
          </p>
          <p className="mt-4 text-sm">
            Questions?{" "}
            <a
              href={`mailto:${brand.contactEmail}`}
              data-testid="footer-contact"
              className="font-medium text-primary underline-offset-4 hover:underline"
            >
              {brand.contactEmail}
            </a>
          </p>
        </div>
        {footerGroups.map((group) => (
          <nav key={group.title} aria-labelledby={`footer-${group.title.toLowerCase()}`}>
            <h2 id={`footer-${group.title.toLowerCase()}`} className="text-sm font-semibold">
              {group.title}
            </h2>
            <ul className="mt-3 space-y-1">
              {group.links.map((link) => (
                <li key={link.label}>
                  <a
                    href={link.href}
                    className="inline-flex min-h-8 items-center text-sm text-muted-foreground hover:text-foreground"
                  >
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t">
        <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-6 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between sm:px-6">
          <p>© {brand.legalEntity} All rights reserved.</p>
          <ul aria-label="Legal" className="flex flex-wrap gap-x-6 gap-y-2">
            {legalLinks.map((label) => (
              <li key={label}>
                {/* Nothing to link to yet: shown as text, not as a link that goes nowhere (decision 0022). */}
                <span data-testid="legal-link">{label}</span>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}
