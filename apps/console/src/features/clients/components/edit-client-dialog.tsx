import { MODULES, type ModuleName } from '@iot/domain';
import { KeyRoundIcon, PencilIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LogoInput } from '../../../components/logo/logo-input';
import { useOverlay } from '../../../components/shell/overlay-host';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import type { Client } from '../../../types/api';
import {
  type ClientLimitKey,
  getPurgePreview,
  useClientLimits,
  useDeleteClient,
  useRequestSupportAccess,
  useUpdateClient,
} from '../api/manage-client';
import { ClientAccessRecord } from './client-access-record';
import { ClientBaseData } from './client-base-data';

const LIMIT_KEYS: ClientLimitKey[] = [
  'max_devices',
  'max_users',
  'max_dashboards',
  'max_rules_per_device',
  'max_uplinks_per_minute',
  'max_data_retention_days',
];

/** The form's state of one limit: '' is no limit. */
type LimitDraft = Record<ClientLimitKey, string>;

/**
 * The super admin edits a client (issue #27): blocked, modules, logo and limits (with the current use);
 * asks it for support access; deletes it after seeing what the purge will remove.
 */
export function EditClientDialog({ client }: { client: Client }) {
  const [open, setOpen] = useState(false);
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="outline" data-testid={`client-edit-${client.id}`}>
          <PencilIcon />
          {t('clients.edit.open')}
        </Button>
      </DialogTrigger>
      {open && <EditClientForm client={client} onDone={() => setOpen(false)} />}
    </Dialog>
  );
}

function EditClientForm({ client, onDone }: { client: Client; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const overlay = useOverlay();
  const limits = useClientLimits(client.id);
  const update = useUpdateClient(client.id);
  const remove = useDeleteClient();
  const ask = useRequestSupportAccess();
  const [blocked, setBlocked] = useState(client.blocked);
  const [customerNumber, setCustomerNumber] = useState(client.customer_number ?? '');
  const [modules, setModules] = useState<string[]>(client.modules ?? []);
  const [logo, setLogo] = useState<string | null | undefined>(undefined);
  const [draft, setDraft] = useState<LimitDraft | null>(null);
  const current: LimitDraft = Object.fromEntries(
    LIMIT_KEYS.map((key) => {
      const entry = limits.data?.find((l) => l.key === key);
      return [key, entry?.limit === null || entry?.limit === undefined ? '' : String(entry.limit)];
    }),
  ) as LimitDraft;
  const values = draft ?? current;
  const n = (value: number) => formatNumber(value, i18n.language);

  const save = (event: React.FormEvent) => {
    event.preventDefault();
    const changedLimits = Object.fromEntries(
      LIMIT_KEYS.filter((key) => values[key] !== current[key]).map((key) => [
        key,
        values[key].trim() === '' ? null : Number(values[key]),
      ]),
    );
    update.mutate(
      {
        blocked,
        modules,
        ...(customerNumber === (client.customer_number ?? '')
          ? {}
          : { customer_number: customerNumber.trim() || null }),
        ...(logo === undefined ? {} : { logo }),
        ...(Object.keys(changedLimits).length > 0 ? { limits: changedLimits } : {}),
      },
      {
        onSuccess: () => {
          notifySuccess(t('clients.edit.saved', { name: client.name }));
          onDone();
        },
      },
    );
  };

  const deleteClient = async () => {
    const preview = await getPurgePreview(client.id);
    const ok = await overlay.confirm({
      title: t('clients.delete.title', { name: client.name }),
      message: t('clients.delete.preview', {
        days: preview.purge_after_days,
        users: n(preview.users),
        devices: n(preview.devices),
        points: n(preview.data_points),
        rules: n(preview.rules),
        alarms: n(preview.alarms),
        dashboards: n(preview.dashboards),
        groups: n(preview.groups),
        keys: n(preview.api_keys),
      }),
      confirmLabel: t('clients.delete.confirm'),
      destructive: true,
      testId: 'client-delete-confirm',
    });
    if (!ok) return;
    remove.mutate(client.id, {
      onSuccess: () => {
        notifySuccess(
          t('clients.delete.done', {
            name: client.name,
            date: formatDateTime(new Date(Date.now() + preview.purge_after_days * 86_400_000), i18n.language),
          }),
        );
        onDone();
      },
    });
  };

  return (
    <DialogContent className="max-h-[90vh] overflow-y-auto" data-testid="client-edit-dialog">
      <DialogHeader>
        <DialogTitle>{t('clients.edit.title', { name: client.name })}</DialogTitle>
        <DialogDescription>{t('clients.edit.intro')}</DialogDescription>
      </DialogHeader>
      <Tabs defaultValue="licence" className="flex flex-col gap-3">
        <TabsList className="self-start">
          <TabsTrigger value="licence" data-testid="client-edit-tab-licence">
            {t('clients.edit.tab-licence')}
          </TabsTrigger>
          <TabsTrigger value="base" data-testid="client-edit-tab-base">
            {t('clients.edit.tab-base')}
          </TabsTrigger>
        </TabsList>
        <TabsContent value="base">
          <ClientBaseData client={client} onDone={onDone} />
        </TabsContent>
        <TabsContent value="licence">
          <form className="flex flex-col gap-4" onSubmit={save} noValidate>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={blocked}
                onChange={(e) => setBlocked(e.target.checked)}
                data-testid="client-edit-blocked"
              />
              {t('clients.edit.blocked')}
            </label>
            <label htmlFor="client-edit-customer-number" className="flex flex-col gap-1 text-sm">
              {t('clients.create.customer-number')}
              <Input
                id="client-edit-customer-number"
                className="max-w-48"
                value={customerNumber}
                onChange={(e) => setCustomerNumber(e.target.value)}
                data-testid="client-edit-customer-number"
              />
            </label>
            <fieldset className="flex flex-wrap gap-3 text-sm">
              <legend className="mb-1">{t('clients.create.modules')}</legend>
              {MODULES.map((module: ModuleName) => (
                <label key={module} className="flex items-center gap-1">
                  <input
                    type="checkbox"
                    checked={modules.includes(module)}
                    onChange={() =>
                      setModules((m) => (m.includes(module) ? m.filter((x) => x !== module) : [...m, module]))
                    }
                    data-testid={`client-edit-module-${module}`}
                  />
                  {t(`clients.module.${module}`)}
                </label>
              ))}
            </fieldset>
            <LogoInput value={logo ?? null} onChange={setLogo} testId="client-edit-logo" />
            <fieldset className="grid grid-cols-2 gap-3 text-sm" data-testid="client-edit-limits">
              <legend className="mb-1">{t('limits.title')}</legend>
              {LIMIT_KEYS.map((key) => {
                const used = limits.data?.find((l) => l.key === key)?.used;
                return (
                  <label key={key} htmlFor={`client-limit-${key}`} className="flex flex-col gap-1">
                    {t(`limits.${key}`)}
                    <Input
                      id={`client-limit-${key}`}
                      type="number"
                      min={key === 'max_data_retention_days' ? 31 : 0}
                      placeholder={t('limits.none')}
                      value={values[key]}
                      onChange={(e) => setDraft({ ...values, [key]: e.target.value })}
                      data-testid={`client-limit-${key}`}
                    />
                    {key === 'max_data_retention_days' ? (
                      // "used" of the retention cap is the client's own setting (null: for ever).
                      <span className="text-xs text-muted-foreground" data-testid="client-retention-own">
                        {t('clients.edit.retention-own', {
                          days: used === null || used === undefined ? t('retention.forever') : n(used),
                        })}
                      </span>
                    ) : (
                      used !== null &&
                      used !== undefined && (
                        <span className="text-xs text-muted-foreground">
                          {t('clients.edit.used', { used: n(used) })}
                        </span>
                      )
                    )}
                  </label>
                );
              })}
            </fieldset>
            <ClientAccessRecord clientId={client.id} />
            <DialogFooter className="flex-wrap gap-2 sm:justify-between">
              <div className="flex gap-2">
                <Button
                  type="button"
                  variant="destructive"
                  onClick={() => void deleteClient()}
                  disabled={remove.isPending}
                  data-testid="client-delete"
                >
                  <Trash2Icon />
                  {t('clients.delete.open')}
                </Button>
                <Button
                  type="button"
                  variant="outline"
                  onClick={() =>
                    ask.mutate(client.id, { onSuccess: () => notifySuccess(t('clients.edit.access-asked')) })
                  }
                  disabled={ask.isPending}
                  data-testid="client-ask-access"
                >
                  <KeyRoundIcon />
                  {t('clients.edit.ask-access')}
                </Button>
              </div>
              <Button type="submit" disabled={update.isPending} data-testid="client-edit-submit">
                {t('common.save')}
              </Button>
            </DialogFooter>
          </form>
        </TabsContent>
      </Tabs>
    </DialogContent>
  );
}
