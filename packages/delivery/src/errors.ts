/**
 * A failure no retry can fix (bad address, refused URL, device without downlink support). Thrown by the
 * delivery code and the notifier's channels alike; the notifier dead-letters the job at once.
 */
export class PermanentDeliveryError extends Error {
  override readonly name = 'PermanentDeliveryError';
}
