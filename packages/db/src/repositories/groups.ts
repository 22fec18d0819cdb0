/**
 * Device groups of a company (GET/POST /core/groups, GET/PUT/DELETE /core/groups/{id}). Every call takes
 * the acting company and filters by it; a group of another company is simply absent, and device ids of
 * another company are never assigned (the device's own company_id is part of every write).
 */
import type { Queryable } from '../db';

export interface GroupRecord {
  id: number;
  companyId: number;
  name: string;
  description: string | null;
  /** The company's devices in this group, ascending. */
  deviceIds: number[];
  createdAt: Date;
  updatedAt: Date;
}

interface GroupRow {
  id: number;
  company_id: number;
  name: string;
  description: string | null;
  device_ids: number[] | null;
  created_at: Date;
  updated_at: Date;
}

// One statement per list: the device ids come from a grouped subquery, not a query per group. The join
// names the company on both sides, so a group can only ever list its own company's devices.
const SELECT_GROUPS = `SELECT g.id::int AS id, g.company_id::int AS company_id, g.name, g.description,
    coalesce(m.device_ids, '{}') AS device_ids, g.created_at, g.updated_at
  FROM groups g
  LEFT JOIN (
    SELECT group_id, array_agg(id::int ORDER BY id) AS device_ids FROM devices
     WHERE company_id = $1 AND group_id IS NOT NULL GROUP BY group_id
  ) m ON m.group_id = g.id
  WHERE g.company_id = $1`;

function toRecord(row: GroupRow): GroupRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    name: row.name,
    description: row.description,
    deviceIds: row.device_ids ?? [],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The company's groups sorted by name (case-insensitive), then id. */
export async function listGroups(q: Queryable, companyId: number): Promise<GroupRecord[]> {
  const { rows } = await q.query<GroupRow>(`${SELECT_GROUPS} ORDER BY lower(g.name), g.id`, [companyId]);
  return rows.map(toRecord);
}

export async function findGroup(q: Queryable, companyId: number, id: number): Promise<GroupRecord | null> {
  const { rows } = await q.query<GroupRow>(`${SELECT_GROUPS} AND g.id = $2`, [companyId, id]);
  const row = rows[0];
  return row ? toRecord(row) : null;
}

/**
 * Serialises group writes of one company until the transaction ends, so two requests creating the same
 * name at once cannot both pass the uniqueness check (the table has no unique index on names). The first
 * key is a constant that names this use; the second the company.
 */
export async function lockCompanyGroups(q: Queryable, companyId: number): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock(4501, $1::int)', [companyId]);
}

/** Whether another group of the company has this name (trimmed, case-insensitive). */
export async function groupNameTaken(
  q: Queryable,
  companyId: number,
  name: string,
  exceptId: number | null = null,
): Promise<boolean> {
  const { rows } = await q.query(
    `SELECT 1 FROM groups WHERE company_id = $1 AND lower(btrim(name)) = lower(btrim($2))
        AND ($3::bigint IS NULL OR id <> $3::bigint) LIMIT 1`,
    [companyId, name, exceptId],
  );
  return rows.length > 0;
}

export async function insertGroup(
  q: Queryable,
  companyId: number,
  input: { name: string; description: string | null },
): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    'INSERT INTO groups (company_id, name, description) VALUES ($1, $2, $3) RETURNING id::int AS id',
    [companyId, input.name, input.description],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('insert into groups returned no row');
  return id;
}

/** Changes name and/or description (undefined: unchanged); false when the company has no such group. */
export async function updateGroup(
  q: Queryable,
  companyId: number,
  id: number,
  changes: { name?: string; description?: string | null },
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE groups SET
        name = CASE WHEN $3 THEN $4 ELSE name END,
        description = CASE WHEN $5 THEN $6 ELSE description END,
        updated_at = now()
      WHERE company_id = $1 AND id = $2`,
    [
      companyId,
      id,
      changes.name !== undefined,
      changes.name ?? null,
      changes.description !== undefined,
      changes.description ?? null,
    ],
  );
  return rowCount > 0;
}

/** Of `ids`, those that are devices of the company (ascending, no duplicates). */
export async function ownedDeviceIds(
  q: Queryable,
  companyId: number,
  ids: readonly number[],
): Promise<number[]> {
  if (ids.length === 0) return [];
  const { rows } = await q.query<{ id: number }>(
    'SELECT id::int AS id FROM devices WHERE company_id = $1 AND id = ANY($2::bigint[]) ORDER BY id',
    [companyId, ids],
  );
  return rows.map((r) => r.id);
}

/**
 * Makes `deviceIds` the group's devices: those are assigned (taken from any other group of the company),
 * the group's other devices are unassigned. The caller checks first that every id is the company's;
 * both statements name the company anyway.
 */
export async function setGroupDevices(
  q: Queryable,
  companyId: number,
  groupId: number,
  deviceIds: readonly number[],
): Promise<void> {
  await q.query(
    `UPDATE devices SET group_id = NULL, updated_at = now()
      WHERE company_id = $1 AND group_id = $2 AND NOT (id = ANY($3::bigint[]))`,
    [companyId, groupId, deviceIds],
  );
  if (deviceIds.length === 0) return;
  await q.query(
    `UPDATE devices SET group_id = $2, updated_at = now()
      WHERE company_id = $1 AND id = ANY($3::bigint[]) AND group_id IS DISTINCT FROM $2`,
    [companyId, groupId, deviceIds],
  );
}

/** Deletes the group after unassigning its devices; false when the company has no such group. */
export async function deleteGroup(q: Queryable, companyId: number, id: number): Promise<boolean> {
  await q.query(
    'UPDATE devices SET group_id = NULL, updated_at = now() WHERE company_id = $1 AND group_id = $2',
    [companyId, id],
  );
  const { rowCount } = await q.query('DELETE FROM groups WHERE company_id = $1 AND id = $2', [companyId, id]);
  return rowCount > 0;
}
