import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { formatDateTime } from '../../../lib/format';
import { useSupportAccess, useUpdateSupportAccess } from '../api/manage-client';

const GRANT_HOURS = [2, 24, 72];

/**
 * Support access with consent (issue #27): the company lets support act as it always, or only while a
 * main user's grant runs; support's request for access is shown with its time.
 */
export function SupportAccessPanel() {
  const { t, i18n } = useTranslation();
  const access = useSupportAccess();
  const update = useUpdateSupportAccess();
  const data = access.data;
  if (!data) return null;
  return (
    <section className="flex flex-col gap-2 text-sm" data-testid="support-access">
      <h3 className="font-semibold">{t('support-access.title')}</h3>
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          checked={data.mode === 'consent'}
          onChange={(e) => update.mutate({ mode: e.target.checked ? 'consent' : 'always' })}
          disabled={update.isPending}
          data-testid="support-access-consent"
        />
        {t('support-access.require-consent')}
      </label>
      {data.requested_at && (
        <p className="text-muted-foreground" data-testid="support-access-requested">
          {t('support-access.requested', { time: formatDateTime(data.requested_at, i18n.language) })}
        </p>
      )}
      {data.mode === 'consent' && (
        <div className="flex flex-wrap items-center gap-2">
          <span data-testid="support-access-state">
            {data.granted_until
              ? t('support-access.granted-until', { time: formatDateTime(data.granted_until, i18n.language) })
              : t('support-access.not-granted')}
          </span>
          {GRANT_HOURS.map((hours) => (
            <Button
              key={hours}
              size="sm"
              variant="outline"
              onClick={() => update.mutate({ grant_hours: hours })}
              disabled={update.isPending}
              data-testid={`support-access-grant-${hours}`}
            >
              {t('support-access.grant', { count: hours })}
            </Button>
          ))}
          {data.granted_until && (
            <Button
              size="sm"
              variant="ghost"
              onClick={() => update.mutate({ grant_hours: 0 })}
              data-testid="support-access-end"
            >
              {t('support-access.end')}
            </Button>
          )}
        </div>
      )}
    </section>
  );
}
