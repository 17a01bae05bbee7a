import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect } from "react";
import { Navigate, useNavigate } from "react-router";
import { LoadingScreen } from "../../components/loading-screen";
import { ApiError } from "../../lib/api";
import { currentUserQueryOptions } from "./api";

/** The firm now requires a second step, and this session has not passed one: it is a pending sign-in from here. */
const isSecondFactorRequired = (error: unknown): boolean =>
  error instanceof ApiError && error.body?.code === "SECOND_FACTOR_REQUIRED";

/**
 * S-GUARD-01..04: reads the current session; shows "Loading" meanwhile; sends the visitor to
 * /login on an error or an empty answer; otherwise shows the signed-in app, `children`. Any request
 * answered SECOND_FACTOR_REQUIRED leads to the second step.
 */
export function SessionGuard({ children }: { children: ReactNode }) {
  const session = useQuery(currentUserQueryOptions());
  useSecondStepWhenRequired();
  if (session.isPending) return <LoadingScreen />;
  if (isSecondFactorRequired(session.error)) return <Navigate to="/login/verify" replace />;
  if (session.isError || !session.data) return <Navigate to="/login" replace />;
  return children;
}

/** Watches every query and change of the signed-in app for the answer that the second step is now due. */
function useSecondStepWhenRequired() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useEffect(() => {
    const leave = (error: unknown) => {
      if (isSecondFactorRequired(error)) void navigate("/login/verify", { replace: true });
    };
    const queries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === "updated" && event.action.type === "error") leave(event.action.error);
    });
    const mutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === "updated" && event.action.type === "error") leave(event.action.error);
    });
    return () => {
      queries();
      mutations();
    };
  }, [queryClient, navigate]);
}
