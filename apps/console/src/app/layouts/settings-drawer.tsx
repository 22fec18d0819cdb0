import { useTranslation } from 'react-i18next';
import { SheetBody } from '../../components/ui/sheet';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { ApiKeysPanel } from '../../features/clients/components/api-keys-panel';
import { CompanyLimits, SupportAccessLog } from '../../features/clients/components/company-limits';
import { SupportAccessPanel } from '../../features/clients/components/support-access-panel';
import { CompanyForm } from '../../features/company/components/company-form';
import { IntegrationsPanel } from '../../features/integrations/components/integrations-panel';
import { hasModule } from '../../lib/guards';
import { canEdit } from '../../lib/roles';
import type { CurrentUser } from '../../types/api';

/**
 * "Settings" of the user menu: the company's base data, and for ROLE_ADMIN and ROLE_MAINUSER its
 * integrations (webhook tokens, the LoRaWAN network server for downlinks) on a second tab.
 */
export function SettingsDrawer({ user, onDone }: { user: CurrentUser; onDone: () => void }) {
  const { t } = useTranslation();
  if (!canEdit(user.roles)) return <CompanyForm company={user.company} onDone={onDone} />;
  return (
    <Tabs defaultValue="company" className="flex flex-1 flex-col overflow-hidden" data-testid="settings-tabs">
      <TabsList className="mx-4 mt-2 self-start">
        <TabsTrigger value="company" data-testid="settings-tab-company">
          {t('settings.tab.company')}
        </TabsTrigger>
        <TabsTrigger value="integrations" data-testid="settings-tab-integrations">
          {t('settings.tab.integrations')}
        </TabsTrigger>
        <TabsTrigger value="api" data-testid="settings-tab-api">
          {t('settings.tab.api')}
        </TabsTrigger>
      </TabsList>
      <TabsContent value="company" className="flex flex-col overflow-hidden data-[state=inactive]:hidden">
        <CompanyForm company={user.company} onDone={onDone} />
      </TabsContent>
      <TabsContent
        value="integrations"
        className="flex flex-col overflow-hidden data-[state=inactive]:hidden"
      >
        <SheetBody className="py-3">
          <IntegrationsPanel />
        </SheetBody>
      </TabsContent>
      <TabsContent value="api" className="flex flex-col overflow-hidden data-[state=inactive]:hidden">
        <SheetBody className="flex flex-col gap-6 py-3">
          <ApiKeysPanel licensed={hasModule(user, 'external_api')} />
          <CompanyLimits />
          {!user.impersonated && user.company_id !== 1 && <SupportAccessPanel />}
          <SupportAccessLog />
        </SheetBody>
      </TabsContent>
    </Tabs>
  );
}
