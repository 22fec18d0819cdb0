import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Outbox } from '../types';

/** New entries come with alarms; the page looks again every 30 s, like the alarm page. */
export const OUTBOX_REFETCH_MS = 30_000;

/** GET /core/outbox: mail, SMS and calls of the company (ROLE_ADMIN, ROLE_MAINUSER). */
export function getOutbox(): Promise<Outbox> {
  return api<Outbox>('/core/outbox');
}

export const outboxQueryOptions = () =>
  queryOptions({ queryKey: ['core', 'outbox'], queryFn: getOutbox, refetchInterval: OUTBOX_REFETCH_MS });

/** `enabled` false for users without a manager role: the API would refuse them (403). */
export function useOutbox(enabled: boolean) {
  return useQuery({ ...outboxQueryOptions(), enabled });
}
