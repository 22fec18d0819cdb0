import { describe, expect, it } from 'vitest';
import {
  DOWNLINK_NOT_ACKNOWLEDGED_CHIRPSTACK,
  DOWNLINK_TTS_FAILED_PREFIX,
  downlinkNoReportError,
  parseDownlinkFailure,
} from './downlink-failure';

describe('parseDownlinkFailure', () => {
  it('reads back every reason the platform writes', () => {
    expect(parseDownlinkFailure(DOWNLINK_NOT_ACKNOWLEDGED_CHIRPSTACK)).toEqual({
      reason: 'not_acknowledged',
    });
    expect(parseDownlinkFailure(downlinkNoReportError(24))).toEqual({ reason: 'no_report', hours: 24 });
    expect(parseDownlinkFailure(downlinkNoReportError(1.25))).toEqual({ reason: 'no_report', hours: 1.3 });
    expect(parseDownlinkFailure(`${DOWNLINK_TTS_FAILED_PREFIX}application downlink too long`)).toEqual({
      reason: 'network_server',
      detail: 'application downlink too long',
    });
  });

  it('passes any other text through as it came', () => {
    for (const text of [
      '14 UNAVAILABLE: No connection established',
      'no report from the network server within soon h',
      '',
    ])
      expect(parseDownlinkFailure(text)).toEqual({ reason: 'other', detail: text });
  });
});
