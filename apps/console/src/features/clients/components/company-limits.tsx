import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { useCompanyLimits, useSupportAccessLog } from '../api/api-keys';

/** The company's limits with its current use (issue #27), read-only: the super admin sets them. */
export function CompanyLimits() {
  const { t, i18n } = useTranslation();
  const limits = useCompanyLimits();
  const n = (value: number) => formatNumber(value, i18n.language);
  return (
    <section className="flex flex-col gap-2" data-testid="company-limits">
      <h3 className="text-sm font-semibold">{t('limits.title')}</h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        {(limits.data ?? []).map((entry) => (
          <div key={entry.key} className="contents" data-testid={`limit-${entry.key}`}>
            <dt className="text-muted-foreground">{t(`limits.${entry.key}`)}</dt>
            <dd>
              {entry.limit === null
                ? `${entry.used === null ? '' : `${n(entry.used)} · `}${t('limits.none')}`
                : t('limits.use', { used: entry.used === null ? '–' : n(entry.used), limit: n(entry.limit) })}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** "Support accessed your account on ...": the impersonation record of the company (issue #27). */
export function SupportAccessLog() {
  const { t, i18n } = useTranslation();
  const log = useSupportAccessLog();
  const entries = log.data ?? [];
  return (
    <section className="flex flex-col gap-2" data-testid="support-access-log">
      <h3 className="text-sm font-semibold">{t('support-log.title')}</h3>
      {entries.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('support-log.empty')}</p>
      ) : (
        <ul className="flex flex-col gap-1 text-sm">
          {entries.map((entry) => (
            <li key={entry.id}>
              {t(entry.action === 'start' ? 'support-log.start' : 'support-log.end', {
                name: entry.user_name ?? '–',
                time: formatDateTime(entry.created_at, i18n.language),
                ip: entry.ip ?? '–',
              })}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
