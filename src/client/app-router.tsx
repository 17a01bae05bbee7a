import { createBrowserRouter } from "react-router";
import { SessionGuard } from "./components/session-guard";
import { NotFoundPage } from "./pages/not-found-page";

/** The signed-in routes of spec section 2; each renders behind the session guard. */
const guardedPaths = [
  "/dashboard",
  "/clients",
  "/tasks",
  "/reports",
  "/users",
  "/users/:id",
  "/settings",
  "/client/:id",
];

export const router = createBrowserRouter([
  {
    element: <SessionGuard />,
    children: guardedPaths.map((path) => ({ path })),
  },
  { path: "*", element: <NotFoundPage /> },
]);
