/**
 * The reasons the platform itself gives when a command to a LoRaWAN device fails (`downlinks.error`).
 * Written once here: ingest and the database write them, the console reads them back to word them in the
 * reader's language. Any other error text (a network server's own words, a transport's error) is shown
 * as it came.
 */

/** ChirpStack's ack event without `acknowledged`: the device did not acknowledge the confirmed downlink. */
export const DOWNLINK_NOT_ACKNOWLEDGED_CHIRPSTACK = 'not acknowledged by the device (ChirpStack)';

/** The Things Stack's downlink_failed message: its reason follows this prefix. */
export const DOWNLINK_TTS_FAILED_PREFIX = 'The Things Stack: ';

const NO_REPORT = 'no report from the network server within ';

/** No report (acknowledged or failed) came within the time-out (DOWNLINK_ACK_TIMEOUT_HOURS). */
export function downlinkNoReportError(hours: number): string {
  return `${NO_REPORT}${Math.round(hours * 10) / 10} h`;
}

export type DownlinkFailure =
  | { reason: 'not_acknowledged' }
  | { reason: 'no_report'; hours: number }
  | { reason: 'network_server'; detail: string }
  | { reason: 'other'; detail: string };

/** What a stored error says, for wording it; `other` for text the platform did not write. */
export function parseDownlinkFailure(error: string): DownlinkFailure {
  if (error === DOWNLINK_NOT_ACKNOWLEDGED_CHIRPSTACK) return { reason: 'not_acknowledged' };
  if (error.startsWith(NO_REPORT) && error.endsWith(' h')) {
    const hours = Number(error.slice(NO_REPORT.length, -2));
    if (Number.isFinite(hours)) return { reason: 'no_report', hours };
  }
  if (error.startsWith(DOWNLINK_TTS_FAILED_PREFIX))
    return { reason: 'network_server', detail: error.slice(DOWNLINK_TTS_FAILED_PREFIX.length) };
  return { reason: 'other', detail: error };
}
