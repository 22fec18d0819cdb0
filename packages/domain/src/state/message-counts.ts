/** Read and unread message counts as the console shows them (spec section 3). */
export interface MessageCounts {
  read: number;
  unread: number;
}

/**
 * Reading a message raises the read count and lowers the unread count; deleting lowers the read
 * count (spec section 4: only read messages are deleted). Counts never go below zero.
 */
export function applyMessageEvent(counts: MessageCounts, event: 'read' | 'delete'): MessageCounts {
  if (event === 'read') return { read: counts.read + 1, unread: Math.max(0, counts.unread - 1) };
  return { read: Math.max(0, counts.read - 1), unread: counts.unread };
}
