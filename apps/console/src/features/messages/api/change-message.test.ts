import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Message, MessageList } from '../types';
import { applyToCache } from './change-message';
import { messagesQueryOptions } from './get-messages';

const message = (id: number, is_read: boolean): Message => ({
  id,
  user_id: null,
  subject: `m${id}`,
  body: '',
  level: 6,
  is_read,
  read_at: null,
  device_id: null,
  kind: null,
  params: null,
  rule_id: null,
  created_at: '2026-11-21T06:00:00Z',
});

function seeded(): QueryClient {
  const client = new QueryClient();
  client.setQueryData(messagesQueryOptions(false).queryKey, {
    read: 1,
    unread: 2,
    messages: [message(1, false), message(2, false)],
  });
  client.setQueryData(messagesQueryOptions(true).queryKey, {
    read: 1,
    unread: 2,
    messages: [message(1, false), message(2, false), message(3, true)],
  });
  return client;
}

const unreadList = (c: QueryClient) => c.getQueryData<MessageList>(messagesQueryOptions(false).queryKey)!;
const allList = (c: QueryClient) => c.getQueryData<MessageList>(messagesQueryOptions(true).queryKey)!;

describe('message counts in the cache (spec section 4)', () => {
  it('reading raises the read count and lowers the unread count in both lists', () => {
    const client = seeded();
    applyToCache(client, 1, 'read');
    expect(unreadList(client)).toMatchObject({ read: 2, unread: 1 });
    expect(unreadList(client).messages.map((m) => m.id)).toEqual([2]);
    expect(allList(client)).toMatchObject({ read: 2, unread: 1 });
    expect(allList(client).messages.find((m) => m.id === 1)?.is_read).toBe(true);
  });

  it('deleting a read message lowers the read count and removes it', () => {
    const client = seeded();
    applyToCache(client, 3, 'delete');
    expect(allList(client)).toMatchObject({ read: 0, unread: 2 });
    expect(allList(client).messages.map((m) => m.id)).toEqual([1, 2]);
  });

  it("the server's counts win over the optimistic ones", () => {
    const client = seeded();
    applyToCache(client, 1, 'read', { id: 1, read: 5, unread: 0 });
    expect(unreadList(client)).toMatchObject({ read: 5, unread: 0 });
    expect(allList(client)).toMatchObject({ read: 5, unread: 0 });
  });
});
