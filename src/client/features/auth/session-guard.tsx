import { useQuery } from "@tanstack/react-query";
import { Navigate, Outlet } from "react-router";
import { LoadingScreen } from "../../components/loading-screen";
import { currentUserQueryOptions } from "./api";

/**
 * S-GUARD-01..04: reads the current session; shows "Loading" meanwhile; sends the visitor to
 * /login on an error or an empty answer; otherwise shows the page.
 */
export function SessionGuard() {
  const session = useQuery(currentUserQueryOptions());
  if (session.isPending) return <LoadingScreen />;
  if (session.isError || !session.data) return <Navigate to="/login" replace />;
  return <Outlet />;
}
