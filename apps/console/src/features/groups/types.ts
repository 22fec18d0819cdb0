/** A device group as GET /core/groups answers it (spec section 3 names only id and name). */
/** A device group as GET /core/groups answers it. */
export type { Group } from '@iot/contracts';

export interface GroupInput {
  name: string;
  description: string | null;
  device_ids: number[];
}
