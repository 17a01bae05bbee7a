import { QueryClient, type QueryFunction } from "@tanstack/react-query";
import { requestJson } from "./api";

/** The default query builds its URL by joining the key's segments with slashes (S-API-29). */
const defaultQueryFn: QueryFunction = ({ queryKey, signal }) =>
  requestJson("GET", queryKey.join("/"), undefined, { signal });

// S-API-30..31: no refetch interval, no refetch on window focus, never stale, no retries.
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      queryFn: defaultQueryFn,
      refetchInterval: false,
      refetchOnWindowFocus: false,
      staleTime: Number.POSITIVE_INFINITY,
      retry: false,
    },
    mutations: { retry: false },
  },
});
