import { QueryClient } from '@tanstack/react-query';

/**
 * Retries are off: every failed call already toasts (spec section 8), a retry would toast again.
 * Window focus does not refetch; lists reload after their own mutations.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
