/**
 * System messages (migration 0003) as a user sees them: the acting company's messages addressed to
 * everyone (user_id NULL) or to this user. `is_read` is one flag per message, so a message to everyone
 * read by one user counts as read for all of them (the table has no per-user read state).
 */
import type { Queryable } from '../db';

export interface MessageRecord {
  id: number;
  userId: number | null;
  subject: string;
  body: string;
  level: number;
  isRead: boolean;
  readAt: Date | null;
  deviceId: number | null;
  ruleId: number | null;
  /**
   * Set on the platform's own messages (migration 0023: `downlink_failed`), null on a rule's system
   * action: what the message says, with `params`, so a reader's console can word it in their language.
   */
  kind: string | null;
  params: Record<string, unknown> | null;
  createdAt: Date;
}

export interface MessageCountsRecord {
  read: number;
  unread: number;
}

interface Row {
  id: number;
  user_id: number | null;
  subject: string;
  body: string;
  level: number;
  is_read: boolean;
  read_at: Date | null;
  device_id: number | null;
  rule_id: number | null;
  kind: string | null;
  params: Record<string, unknown> | null;
  created_at: Date;
}

const VISIBLE = 'company_id = $1 AND (user_id IS NULL OR user_id = $2)';

function toRecord(row: Row): MessageRecord {
  return {
    id: row.id,
    userId: row.user_id,
    subject: row.subject,
    body: row.body,
    level: row.level,
    isRead: row.is_read,
    readAt: row.read_at,
    deviceId: row.device_id,
    ruleId: row.rule_id,
    kind: row.kind,
    params: row.params,
    createdAt: row.created_at,
  };
}

export async function listMessages(
  q: Queryable,
  companyId: number,
  userId: number,
  options: { includeRead: boolean; limit: number },
): Promise<MessageRecord[]> {
  const { rows } = await q.query<Row>(
    `SELECT id::int AS id, user_id::int AS user_id, subject, body, level::int AS level, is_read, read_at,
            device_id::int AS device_id, rule_id::int AS rule_id, kind, params, created_at
       FROM messages WHERE ${VISIBLE} ${options.includeRead ? '' : 'AND NOT is_read'}
      ORDER BY created_at DESC, id DESC LIMIT $3`,
    [companyId, userId, options.limit],
  );
  return rows.map(toRecord);
}

export async function countMessages(
  q: Queryable,
  companyId: number,
  userId: number,
): Promise<MessageCountsRecord> {
  const { rows } = await q.query<{ read: number; unread: number }>(
    `SELECT count(*) FILTER (WHERE is_read)::int AS read, count(*) FILTER (WHERE NOT is_read)::int AS unread
       FROM messages WHERE ${VISIBLE}`,
    [companyId, userId],
  );
  return rows[0] ?? { read: 0, unread: 0 };
}

/** Marks a visible message read (once: read_at keeps the first reading). False when not visible. */
export async function markMessageRead(
  q: Queryable,
  companyId: number,
  userId: number,
  id: number,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE messages SET is_read = true, read_at = coalesce(read_at, now()) WHERE ${VISIBLE} AND id = $3`,
    [companyId, userId, id],
  );
  return rowCount > 0;
}

export async function deleteMessage(
  q: Queryable,
  companyId: number,
  userId: number,
  id: number,
): Promise<boolean> {
  const { rowCount } = await q.query(`DELETE FROM messages WHERE ${VISIBLE} AND id = $3`, [
    companyId,
    userId,
    id,
  ]);
  return rowCount > 0;
}

/** A rule's system action (migration 0003): a message to everyone of the company. Returns its id. */
export async function insertSystemMessage(
  q: Queryable,
  companyId: number,
  message: {
    subject: string;
    body: string;
    level: number;
    deviceId: number | null;
    ruleId: number | null;
    /** The platform's text kind and parameters (a blank system action: `rule_alarm`); absent: the rule's own words. */
    kind?: string;
    params?: Record<string, unknown>;
  },
): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO messages (company_id, subject, body, level, device_id, rule_id, kind, params)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [
      companyId,
      message.subject,
      message.body,
      message.level,
      message.deviceId,
      message.ruleId,
      message.kind ?? null,
      message.params ? JSON.stringify(message.params) : null,
    ],
  );
  return rows[0]!.id;
}
