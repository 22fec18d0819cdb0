import { applyMessageEvent } from '@iot/domain';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { MessageChange, MessageList } from '../types';
import { messagesQueryOptions } from './get-messages';

/** PUT /core/messages/{id}: mark read. */
export function readMessage(id: number): Promise<MessageChange> {
  return api<MessageChange>(`/core/messages/${id}`, { method: 'PUT' });
}

/** DELETE /core/messages/{id}. */
export function deleteMessage(id: number): Promise<MessageChange> {
  return api<MessageChange>(`/core/messages/${id}`, { method: 'DELETE' });
}

/**
 * Spec section 4: reading raises the read count and lowers the unread count, deleting lowers the read
 * count. Both cached lists change at once (the badge reads the unread list), optimistically through the
 * domain's applyMessageEvent, then settle on the counts the server answers with.
 */
export function applyToCache(
  queryClient: QueryClient,
  id: number,
  event: 'read' | 'delete',
  counts?: MessageChange,
): void {
  for (const showRead of [false, true]) {
    queryClient.setQueryData(messagesQueryOptions(showRead).queryKey, (list: MessageList | undefined) => {
      if (!list) return list;
      // The counts are the user's totals, the same in both lists.
      const next = counts ? { read: counts.read, unread: counts.unread } : applyMessageEvent(list, event);
      const messages =
        event === 'delete' || !showRead
          ? list.messages.filter((m) => m.id !== id)
          : list.messages.map((m) =>
              m.id === id ? { ...m, is_read: true, read_at: new Date().toISOString() } : m,
            );
      return { ...next, messages };
    });
  }
}

function useMessageChange(event: 'read' | 'delete') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: event === 'read' ? readMessage : deleteMessage,
    onMutate: (id: number) => applyToCache(queryClient, id, event),
    onSuccess: (counts, id) => applyToCache(queryClient, id, event, counts),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: messagesQueryOptions(true).queryKey.slice(0, 2) }),
  });
}

export function useReadMessage() {
  return useMessageChange('read');
}

export function useDeleteMessage() {
  return useMessageChange('delete');
}
