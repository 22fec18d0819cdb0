/**
 * The QoS 1 uplinks one broker connection has handed over and not yet acknowledged.
 *
 * Each uplink is admitted at once (so the connection reads on while the event log works), and its
 * PUBACK is sent only after the log accepted it. PUBACKs leave in the order the PUBLISH packets came
 * (MQTT 3.1.1 section 4.6, 5.0 section 4.6: a client acknowledges QoS 1 messages in the order received),
 * so an uplink accepted early waits behind an older one still in the log. At most `limit` uplinks are
 * in the window, counting those accepted and waiting for their turn: beyond, `admit` holds the reader
 * back, which stops reading the socket and leaves the backlog with the broker.
 */
export class PubackWindow {
  /** `messageId` undefined: a QoS 0 uplink, which has no PUBACK but counts against the window. */
  private readonly entries: WindowEntry[] = [];
  private readonly waitingForRoom: (() => void)[] = [];

  constructor(
    readonly limit: number,
    /** Sends the PUBACK of one message id. */
    private readonly sendPuback: (messageId: number) => void,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('the PUBACK window must be at least 1');
  }

  /** Uplinks admitted and not yet acknowledged. */
  get size(): number {
    return this.entries.length;
  }

  /**
   * Takes an uplink into the window. `readOn` is called once there is room for the next one: at once
   * while the window is not full, else when the oldest uplinks leave it. Returns the uplink's handle.
   */
  admit(messageId: number | undefined, readOn: () => void): WindowEntry {
    const entry = new WindowEntry(this, messageId);
    this.entries.push(entry);
    if (this.entries.length < this.limit) readOn();
    else this.waitingForRoom.push(readOn);
    return entry;
  }

  /** @internal The uplink of `entry` was accepted by the log (see WindowEntry.accepted). */
  flush(): void {
    while (this.entries.length > 0 && this.entries[0]!.isAccepted) {
      const { messageId } = this.entries.shift()!;
      if (messageId !== undefined) this.sendPuback(messageId);
    }
    while (this.waitingForRoom.length > 0 && this.entries.length < this.limit) this.waitingForRoom.shift()!();
  }

  /**
   * The connection is gone: unacknowledged uplinks must not be acknowledged on the next connection
   * (message ids are per connection and the broker redelivers them from the session), so the window
   * forgets them. A reader held back is let go; it belongs to the old connection.
   */
  reset(): void {
    this.entries.length = 0;
    for (const readOn of this.waitingForRoom.splice(0)) readOn();
  }
}

/** One uplink in a PubackWindow (a class, not closures: one of these per uplink). */
export class WindowEntry {
  isAccepted = false;
  constructor(
    private readonly window: PubackWindow,
    readonly messageId: number | undefined,
  ) {}

  /** The log accepted the uplink: its PUBACK leaves once the older ones have left. */
  accepted(): void {
    this.isAccepted = true;
    this.window.flush();
  }
}
