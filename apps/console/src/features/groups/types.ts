/** A device group as GET /core/groups answers it (spec section 3 names only id and name). */
export interface Group {
  id: number;
  name: string;
  description: string | null;
  device_count: number;
  device_ids: number[];
}

export interface GroupInput {
  name: string;
  description: string | null;
  device_ids: number[];
}
