import { useTranslation } from 'react-i18next';
import type { Client } from '../../../types/api';
import { CompanyForm } from '../../company/components/company-form';
import { useClient, useUpdateClient } from '../api/manage-client';

/**
 * The client's base data of spec section 3 (address with country, state and district, phone, email),
 * edited by the super admin with the form companies use for themselves (issue #27).
 */
export function ClientBaseData({ client, onDone }: { client: Client; onDone: () => void }) {
  const { t } = useTranslation();
  const company = useClient(client.id);
  const update = useUpdateClient(client.id);
  if (!company.data) return <p className="text-sm text-muted-foreground">{t('common.loading')}</p>;
  return (
    <div className="flex flex-col" data-testid="client-base-data">
      <CompanyForm
        company={company.data}
        ownSettings={false}
        onDone={onDone}
        save={(values) => update.mutateAsync(values)}
      />
    </div>
  );
}
