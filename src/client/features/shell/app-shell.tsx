import { Menu } from "lucide-react";
import { useState } from "react";
import { Outlet, useMatch } from "react-router";
import { BrandMark } from "../../components/brand-mark";
import { Button } from "../../components/ui/button";
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from "../../components/ui/sheet";
import { ClientSearch } from "./client-search";
import { OverdueBell } from "./overdue-bell";
import { useRouteTitle } from "./route-title";
import { SideNav } from "./side-nav";
import { UserMenu } from "./user-menu";

/**
 * The signed-in frame (the SHELL requirements): side navigation (a slide-over below md), and a header with
 * the page title, the client search, the overdue bell and the user menu.
 */
export function AppShell() {
  const title = useRouteTitle();
  const [menuOpen, setMenuOpen] = useState(false);
  // The Clients page has a search of its own that filters its list, which is what a person on
  // that page wants; a second box there that looks the same but jumps away would only confuse.
  const onClientsPage = useMatch("/clients") !== null;

  return (
    <div className="min-h-screen bg-background">
      <aside className="fixed inset-y-0 left-0 z-30 hidden w-60 flex-col border-r bg-sidebar md:flex">
        <div className="flex h-16 shrink-0 items-center px-5">
          <BrandMark />
        </div>
        <SideNav />
      </aside>

      <div className="flex min-h-screen flex-col md:pl-60">
        <header className="sticky top-0 z-20 border-b bg-card/95 backdrop-blur supports-[backdrop-filter]:bg-card/80">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-3 px-4 py-3 md:h-16 md:flex-nowrap md:gap-x-3 md:px-8 md:py-0">
            <Sheet open={menuOpen} onOpenChange={setMenuOpen}>
              <SheetTrigger asChild>
                <Button variant="ghost" size="icon" className="-ml-2 md:hidden" aria-label="Open navigation">
                  <Menu className="size-5" aria-hidden="true" />
                </Button>
              </SheetTrigger>
              <SheetContent side="left">
                <div className="flex h-16 shrink-0 items-center px-5">
                  <BrandMark />
                </div>
                <SheetTitle className="sr-only">Navigation</SheetTitle>
                <SheetDescription className="sr-only">Go to another part of the app</SheetDescription>
                <SideNav onNavigate={() => setMenuOpen(false)} />
              </SheetContent>
            </Sheet>
            <h1 className="min-w-0 flex-1 truncate text-lg font-semibold tracking-tight">{title}</h1>
            {!onClientsPage && <ClientSearch className="order-last w-full md:order-none md:w-72 lg:w-80" />}
            <OverdueBell />
            <UserMenu />
          </div>
        </header>
        <main className="flex-1 px-4 py-6 md:px-8 md:py-8">
          <div className="mx-auto w-full max-w-6xl">
            <Outlet />
          </div>
        </main>
      </div>
    </div>
  );
}
