/** Water association membership requests: pending, then accepted (POST) or rejected (DELETE) (spec section 4). */
export const MEMBERSHIP_REQUEST_STATES = ['pending', 'accepted', 'rejected'] as const;
export type MembershipRequestState = (typeof MEMBERSHIP_REQUEST_STATES)[number];

/** The state after a decision, or null when the request was already decided and cannot change. */
export function decideMembershipRequest(
  state: MembershipRequestState,
  decision: 'accept' | 'reject',
): MembershipRequestState | null {
  if (state !== 'pending') return null;
  return decision === 'accept' ? 'accepted' : 'rejected';
}
