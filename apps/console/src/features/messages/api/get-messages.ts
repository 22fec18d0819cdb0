import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { MessageList } from '../types';

/** New system messages arrive from the rules worker; the badge looks again every minute. */
export const MESSAGES_REFETCH_MS = 60_000;

/** GET /core/messages?show_read=0|1: the messages (read ones too with 1) and the read and unread counts. */
export function getMessages(showRead: boolean): Promise<MessageList> {
  return api<MessageList>('/core/messages', { query: { show_read: showRead ? 1 : 0 } });
}

export const messagesQueryOptions = (showRead: boolean) =>
  queryOptions({
    queryKey: ['core', 'messages', showRead ? 'all' : 'unread'],
    queryFn: () => getMessages(showRead),
    refetchInterval: MESSAGES_REFETCH_MS,
  });

export function useMessages(showRead: boolean) {
  return useQuery(messagesQueryOptions(showRead));
}
