import type { ComponentType } from "react";
import { createBrowserRouter, Outlet, type RouteObject } from "react-router";
import { LoadingScreen } from "./components/loading-screen";
import { SessionGuard } from "./features/auth/session-guard";
import { StepUpProvider } from "./features/mfa/step-up-provider";
import type { RouteHandle } from "./features/shell/route-title";
import { NotFoundPage } from "./pages/not-found-page";

/*
 * Every page is its own lazy chunk, so a screen's code loads only when it is visited.
 * "/" shows the dashboard to a signed-in user (docs/design/signed-in-app.md). A visitor loading "/" gets the
 * landing page from the server (decision 0022); the app sees "/" only with a session, or when the
 * session ends while it is open, and then its guard sends the visitor to /login.
 */
const page = (title: string, load: () => Promise<{ Component: ComponentType }>): RouteObject => ({
  handle: { title } satisfies RouteHandle,
  lazy: load,
});

const dashboard = () => import("./features/dashboard/dashboard-page").then((m) => ({ Component: m.DashboardPage }));

const routes: RouteObject[] = [
  {
    path: "/login",
    lazy: () => import("./features/auth/login-page").then((m) => ({ Component: m.LoginPage })),
  },
  // The second step of sign-in, or setting one up (decision 0044): outside the guard, as no session exists yet.
  {
    path: "/login/verify",
    lazy: () => import("./features/auth/second-step-page").then((m) => ({ Component: m.SecondStepPage })),
  },
  // Onboarding (S-GUARD-13): public, outside the session guard; each screen checks the earlier steps itself.
  {
    path: "/signup",
    lazy: () => import("./features/billing/signup-page").then((m) => ({ Component: m.SignupPage })),
  },
  {
    path: "/onboarding/plans",
    lazy: () => import("./features/billing/plans-page").then((m) => ({ Component: m.PlansPage })),
  },
  {
    path: "/onboarding/payment",
    lazy: () => import("./features/billing/payment-page").then((m) => ({ Component: m.PaymentPage })),
  },
  {
    path: "/onboarding/success",
    lazy: () => import("./features/billing/success-page").then((m) => ({ Component: m.SuccessPage })),
  },
  // An e-mail's unsubscribe link (decision 0052): its signed address is the proof, no session is needed.
  {
    path: "/unsubscribe/:token",
    lazy: () => import("./features/notifications/unsubscribe-page").then((m) => ({ Component: m.UnsubscribePage })),
  },
  // The signed-in app, with the "Confirm it's you" dialog its sensitive changes may ask for (decision 0054).
  {
    element: (
      <SessionGuard>
        <StepUpProvider>
          <Outlet />
        </StepUpProvider>
      </SessionGuard>
    ),
    children: [
      {
        lazy: () => import("./features/shell/app-shell").then((m) => ({ Component: m.AppShell })),
        children: [
          { path: "/", ...page("Dashboard", dashboard) },
          { path: "/dashboard", ...page("Dashboard", dashboard) },
          {
            path: "/clients",
            ...page("Clients", () =>
              import("./features/clients/clients-page").then((m) => ({ Component: m.ClientsPage })),
            ),
          },
          {
            path: "/clients/import",
            ...page("Import Clients", () =>
              import("./features/client-import/client-import-page").then((m) => ({ Component: m.ClientImportPage })),
            ),
          },
          {
            path: "/client/:id",
            ...page("Client Details", () =>
              import("./features/client-detail/client-detail-page").then((m) => ({ Component: m.ClientDetailPage })),
            ),
          },
          {
            path: "/tasks",
            ...page("Task Audit", () =>
              import("./features/tasks/tasks-page").then((m) => ({ Component: m.TasksPage })),
            ),
          },
          {
            path: "/reports",
            ...page("Reports", () =>
              import("./features/reports/reports-page").then((m) => ({ Component: m.ReportsPage })),
            ),
          },
          {
            path: "/users",
            ...page("User Management", () =>
              import("./features/users/users-page").then((m) => ({ Component: m.UsersPage })),
            ),
          },
          {
            path: "/users/:id",
            ...page("User Profile", () =>
              import("./features/users/user-profile-page").then((m) => ({ Component: m.UserProfilePage })),
            ),
          },
          {
            path: "/settings",
            ...page("Settings", () =>
              import("./features/settings/settings-page").then((m) => ({ Component: m.SettingsPage })),
            ),
          },
          {
            path: "/settings/audit-trail",
            ...page("Audit Trail", () =>
              import("./features/audit-trail/audit-trail-page").then((m) => ({ Component: m.AuditTrailPage })),
            ),
          },
          {
            path: "/settings/outbox",
            ...page("Outgoing Mail", () =>
              import("./features/mail-outbox/mail-outbox-page").then((m) => ({ Component: m.MailOutboxPage })),
            ),
          },
        ],
      },
    ],
  },
  { path: "*", element: <NotFoundPage /> },
];

// When the router starts, the first page's code is still loading: until it arrives the router
// shows the loading screen (without a fallback React Router warns on every page load, and shows nothing).
export const router = createBrowserRouter([{ HydrateFallback: LoadingScreen, children: routes }]);
