import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';
import { useClientImpersonations } from '../api/deleted-clients';

/** Who acted as the client, when and from where, newest first: the super admin's view (issue #27). */
export function ClientAccessRecord({ clientId }: { clientId: number }) {
  const { t, i18n } = useTranslation();
  const record = useClientImpersonations(clientId);
  const entries = record.data ?? [];
  return (
    <section className="flex flex-col gap-1 text-sm" data-testid="client-access-record">
      <h3 className="font-semibold">{t('clients.record.title')}</h3>
      {entries.length === 0 ? (
        <p className="text-muted-foreground">{t('clients.record.empty')}</p>
      ) : (
        <ul className="flex max-h-32 flex-col gap-1 overflow-y-auto">
          {entries.map((entry) => (
            <li key={entry.id} data-testid={`client-access-record-${entry.action}`}>
              {t(entry.action === 'start' ? 'clients.record.start' : 'clients.record.end', {
                name: entry.user_name ?? entry.user_email ?? '–',
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
