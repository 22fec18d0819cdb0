import { parseDownlinkFailure } from '@iot/domain';
import type { TFunction } from 'i18next';
import { formatNumber } from './format';

/**
 * A failed command's error in the reader's language where the platform wrote it (@iot/domain
 * downlink-failure); a network server's own reason inside our sentence, any other text as it came.
 */
export function downlinkErrorText(error: string, t: TFunction, lang: string): string {
  const failure = parseDownlinkFailure(error);
  switch (failure.reason) {
    case 'not_acknowledged':
      return t('downlink.error.not_acknowledged');
    case 'no_report':
      return t('downlink.error.no_report', { hours: formatNumber(failure.hours, lang) });
    case 'network_server':
      return t('downlink.error.network_server', { detail: failure.detail });
    case 'other':
      return failure.detail;
  }
}
