import {
  DOWNLINK_NOT_ACKNOWLEDGED_CHIRPSTACK,
  DOWNLINK_TTS_FAILED_PREFIX,
  downlinkNoReportError,
} from '@iot/domain';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { de } from '../locales/de';
import { en } from '../locales/en';
import { downlinkErrorText } from './downlink-error';

describe('downlinkErrorText', () => {
  const i18n = i18next.createInstance();
  beforeAll(async () => {
    await i18n.init({ lng: 'de', resources: { de: { translation: de }, en: { translation: en } } });
  });

  it("words the platform's own reasons in the reader's language, numbers per locale", () => {
    const de = i18n.getFixedT('de');
    expect(downlinkErrorText(DOWNLINK_NOT_ACKNOWLEDGED_CHIRPSTACK, de, 'de')).toBe(
      'vom Gerät nicht bestätigt',
    );
    expect(downlinkErrorText(downlinkNoReportError(1.5), de, 'de')).toBe(
      'keine Meldung des Netzwerkservers innerhalb von 1,5 h',
    );
    expect(downlinkErrorText(`${DOWNLINK_TTS_FAILED_PREFIX}application downlink too long`, de, 'de')).toBe(
      'der Netzwerkserver meldet: application downlink too long',
    );
    const en = i18n.getFixedT('en');
    expect(downlinkErrorText(downlinkNoReportError(24), en, 'en')).toBe(
      'no report from the network server within 24 h',
    );
  });

  it('shows any other error as it came', () => {
    expect(downlinkErrorText('14 UNAVAILABLE: No connection established', i18n.getFixedT('de'), 'de')).toBe(
      '14 UNAVAILABLE: No connection established',
    );
  });
});
