/**
 * A LoRaWAN network server refused a downlink for a reason another attempt meets again (a wrong token or
 * key, a device it does not know, a request it cannot take, a target the platform may not call).
 * sendDownlink reports it as 95 with `details.permanent`, and the remote control action goes to the
 * dead-letter list at once instead of retrying.
 */
export class NetworkServerRefusedError extends Error {
  constructor(
    message: string,
    /** The network server's status (gRPC status name or HTTP status). */
    readonly status: string,
  ) {
    super(message);
    this.name = 'NetworkServerRefusedError';
  }
}
