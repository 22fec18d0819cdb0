import type { NwaMember, SharedDevice } from '@iot/contracts';
import { HistoryIcon, PencilIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOverlay } from '../../../components/shell/overlay-host';
import { PageHeader } from '../../../components/shell/page-header';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import {
  useMeterHistory,
  useSharedDevices,
  useSwitchSharedValve,
  useUpdateSharedDevice,
  useWaterDetails,
} from '../api/water-api';
import { useWaterId } from './use-water-id';
import { formatM3 } from './water-format';

/** /water/shareddevices/:id?: the devices members share, their usage settings and history. */
export function WaterSharedDevicesPage() {
  const { t, i18n } = useTranslation();
  const overlay = useOverlay();
  const id = useWaterId();
  const details = useWaterDetails(id);
  const shared = useSharedDevices(id);
  const members = details.data?.members ?? [];
  const switchValve = useSwitchSharedValve(id ?? 0);
  const sendValve = (deviceId: number, on: boolean) =>
    switchValve.mutate({ deviceId, on }, { onSuccess: () => notifySuccess(t('water.valve-sent')) });
  const nameOf = (companyId: number | null) => members.find((m) => m.company_id === companyId)?.name ?? '–';
  if (id === null) return null;
  const openUsage = (d: SharedDevice) =>
    overlay.openDrawer({
      header: { name: d.name, id: d.device_id, icon: <PencilIcon /> },
      testId: 'water-usage-drawer',
      render: (close) => <UsageForm nwaId={id} device={d} members={members} onDone={close} />,
    });
  const openHistory = (d: SharedDevice) =>
    overlay.openDrawer({
      header: { name: d.name, id: d.device_id, icon: <HistoryIcon /> },
      testId: 'water-history-drawer',
      wide: true,
      render: () => <MeterHistoryView nwaId={id} deviceId={d.device_id} />,
    });
  return (
    <div className="flex flex-col gap-4" data-testid="water-shared-page">
      <PageHeader title={t('page.water-shared')} />
      <Card className="p-0">
        <Table data-testid="water-shared-table">
          <TableHeader>
            <TableRow>
              <TableHead>{t('water.device')}</TableHead>
              <TableHead>{t('water.owner')}</TableHead>
              <TableHead>{t('water.access')}</TableHead>
              <TableHead>{t('water.counts-against')}</TableHead>
              <TableHead>{t('water.unit')}</TableHead>
              <TableHead className="text-right">{t('water.meter-factor')}</TableHead>
              <TableHead>{t('water.last-reading')}</TableHead>
              <TableHead />
            </TableRow>
          </TableHeader>
          <TableBody>
            {(shared.data ?? []).map((d) => (
              <TableRow key={d.device_id} data-testid={`water-shared-${d.device_id}`}>
                <TableCell className="font-medium">{d.name}</TableCell>
                <TableCell>{d.owner_name}</TableCell>
                <TableCell>{t(`water.access-${d.access}`)}</TableCell>
                <TableCell>{nameOf(d.counts_against_company_id)}</TableCell>
                <TableCell>{t(`water.unit-${d.unit}`)}</TableCell>
                <TableCell className="text-right">{formatNumber(d.meter_factor, i18n.language)}</TableCell>
                <TableCell>{formatDateTime(d.last_reading_at, i18n.language)}</TableCell>
                <TableCell className="flex justify-end gap-1">
                  <Button
                    size="icon"
                    variant="ghost"
                    aria-label={t('water.history')}
                    onClick={() => openHistory(d)}
                  >
                    <HistoryIcon />
                  </Button>
                  {details.data?.is_admin && d.access === 'control' && (
                    <>
                      <Button
                        size="sm"
                        variant="outline"
                        onClick={() => sendValve(d.device_id, true)}
                        data-testid={`water-valve-open-${d.device_id}`}
                      >
                        {t('water.valve-open')}
                      </Button>
                      <Button
                        size="sm"
                        variant="outline"
                        onClick={() => sendValve(d.device_id, false)}
                        data-testid={`water-valve-close-${d.device_id}`}
                      >
                        {t('water.valve-close')}
                      </Button>
                    </>
                  )}
                  {details.data?.is_admin && (
                    <Button
                      size="icon"
                      variant="ghost"
                      aria-label={t('water.usage-edit')}
                      onClick={() => openUsage(d)}
                      data-testid={`water-usage-edit-${d.device_id}`}
                    >
                      <PencilIcon />
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
            {shared.isFetched && (shared.data ?? []).length === 0 && (
              <TableRow>
                <TableCell colSpan={8} className="text-center text-muted-foreground">
                  {t('common.no-data')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </Card>
    </div>
  );
}

/** The "water device usage edit" drawer: which member the meter counts against, unit and meter factor. */
function UsageForm(props: { nwaId: number; device: SharedDevice; members: NwaMember[]; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useUpdateSharedDevice(props.nwaId);
  const [member, setMember] = useState(String(props.device.counts_against_company_id ?? ''));
  const [unit, setUnit] = useState(props.device.unit);
  const [factor, setFactor] = useState(String(props.device.meter_factor));
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    save.mutate(
      {
        deviceId: props.device.device_id,
        counts_against_company_id: member === '' ? null : Number(member),
        unit,
        meter_factor: Number(factor.replace(',', '.')),
      },
      {
        onSuccess: () => {
          notifySuccess(t('water.saved'));
          props.onDone();
        },
      },
    );
  };
  return (
    <form className="flex flex-col gap-4 p-4" onSubmit={submit} data-testid="water-usage-form">
      <Label className="flex flex-col items-start gap-1">
        {t('water.counts-against')}
        <NativeSelect value={member} onChange={(e) => setMember(e.target.value)}>
          <option value="">–</option>
          {props.members.map((m) => (
            <option key={m.company_id} value={m.company_id}>
              {m.name}
            </option>
          ))}
        </NativeSelect>
      </Label>
      <Label className="flex flex-col items-start gap-1">
        {t('water.unit')}
        <NativeSelect value={unit} onChange={(e) => setUnit(e.target.value as 'm3' | 'l')}>
          <option value="m3">{t('water.unit-m3')}</option>
          <option value="l">{t('water.unit-l')}</option>
        </NativeSelect>
      </Label>
      <Label className="flex flex-col items-start gap-1">
        {t('water.meter-factor')}
        <Input inputMode="decimal" value={factor} onChange={(e) => setFactor(e.target.value)} />
      </Label>
      <Button type="submit" disabled={save.isPending}>
        {t('common.save')}
      </Button>
    </form>
  );
}

/** The "water device history" wide drawer: the readings and the daily use derived from them. */
function MeterHistoryView({ nwaId, deviceId }: { nwaId: number; deviceId: number }) {
  const { t, i18n } = useTranslation();
  const history = useMeterHistory(nwaId, deviceId);
  const h = history.data;
  if (!h) return null;
  return (
    <div className="flex flex-col gap-4 p-4" data-testid="water-history">
      <div className="text-sm text-muted-foreground">
        {t('water.counter-resets', { count: h.counter_resets })}
      </div>
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>{t('water.day')}</TableHead>
            <TableHead className="text-right">{t('water.used')}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {[...h.daily].reverse().map((d) => (
            <TableRow key={d.day}>
              <TableCell>{d.day}</TableCell>
              <TableCell className="text-right">{formatM3(d.volume, i18n.language, 2)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
