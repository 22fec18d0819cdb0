/** Checks of a company's device data retention settings (issue #29) before they are stored. */
import { type CompanyBaseData, type CompanyRecord, effectiveDataRetentionDays } from '@iot/db';
import { apiError } from '../lib/errors';

/**
 * Refuses a data retention above the client's cap (90090) and a rollup retention shorter than the data
 * retention in effect, or one without any (90091): charts read the rollups once the raw data is gone, and
 * rollups deleted while the raw data stays would only be rebuilt. Only what the request sets is checked, so
 * a company edit of other fields never fails because the super admin lowered the cap since.
 */
export function checkRetention(
  current: CompanyRecord,
  data: CompanyBaseData,
  cap: number | null = current.dataRetentionCap,
): void {
  if (data.dataRetentionDays === undefined && data.rollupRetentionDays === undefined) return;
  const own = data.dataRetentionDays === undefined ? current.dataRetentionDays : data.dataRetentionDays;
  if (data.dataRetentionDays != null && cap !== null && data.dataRetentionDays > cap) {
    throw apiError('DATA_RETENTION_ABOVE_CLIENT_LIMIT');
  }
  const rollups =
    data.rollupRetentionDays === undefined ? current.rollupRetentionDays : data.rollupRetentionDays;
  if (rollups === null) return;
  const effective = effectiveDataRetentionDays(own, cap);
  if (effective === null || rollups < effective) throw apiError('ROLLUP_RETENTION_TOO_SHORT');
}
