import { ArrowDownIcon, ArrowUpIcon, PlusIcon, SaveIcon, Trash2Icon } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { useErrorText } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { SheetBody, SheetFooter } from '../../../components/ui/sheet';
import { notifySuccess } from '../../../lib/notify';
import type { Device } from '../../../types/device';
import { useDevice } from '../api/get-device';
import { useUpdateMetadata } from '../api/update-metadata';
import { metadataEntries } from '../device-columns';
import { addRow, type MetadataRow, moveRow, toEntries, toRows, validateRows } from '../metadata-rows';
import { useCanEditDevices } from './can-edit';

/** Labels and order of the device's data fields (sort 1 to 99999, spec section 5). */
export function DeviceMetadataDrawer({ device: row, onDone }: { device: Device; onDone: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const canEdit = useCanEditDevices();
  const details = useDevice(row.id);
  const device = details.data ?? row;
  const save = useUpdateMetadata();
  const [rows, setRows] = useState<MetadataRow[]>(() => toRows(metadataEntries(device)));
  const [touched, setTouched] = useState(false);
  // The details may arrive after the drawer opened; take them as long as nothing was edited.
  useEffect(() => {
    if (!touched && details.data) setRows(toRows(metadataEntries(details.data)));
  }, [details.data, touched]);
  const errors = useMemo(() => validateRows(rows), [rows]);
  const known = Object.keys(device.data ?? {}).sort();
  const edit = (next: MetadataRow[]) => {
    setTouched(true);
    setRows(next);
  };
  const patch = (key: number, change: Partial<MetadataRow>) =>
    edit(rows.map((r) => (r.key === key ? { ...r, ...change } : r)));

  return (
    <>
      <SheetBody className="flex flex-col gap-2 pb-4" data-testid="device-metadata">
        <datalist id={`fields-${device.id}`}>
          {known.map((f) => (
            <option key={f} value={f} />
          ))}
        </datalist>
        <div className="grid grid-cols-[1fr_1fr_5.5rem_auto] gap-2 text-xs text-muted-foreground">
          <span>{t('devices.metadata.field')}</span>
          <span>{t('devices.metadata.label')}</span>
          <span>{t('devices.metadata.sort')}</span>
          <span />
        </div>
        {rows.map((r, index) => {
          const e = errors.get(r.key);
          return (
            <div key={r.key} className="flex flex-col gap-1" data-testid="metadata-row">
              <div className="grid grid-cols-[1fr_1fr_5.5rem_auto] items-center gap-2">
                <Input
                  value={r.data_field}
                  list={`fields-${device.id}`}
                  disabled={!canEdit}
                  aria-invalid={!!e?.data_field}
                  aria-label={t('devices.metadata.field')}
                  onChange={(ev) => patch(r.key, { data_field: ev.target.value })}
                  data-testid="metadata-field"
                />
                <Input
                  value={r.label}
                  disabled={!canEdit}
                  aria-invalid={!!e?.label}
                  aria-label={t('devices.metadata.label')}
                  onChange={(ev) => patch(r.key, { label: ev.target.value })}
                  data-testid="metadata-label"
                />
                <Input
                  value={r.sort}
                  inputMode="numeric"
                  disabled={!canEdit}
                  aria-invalid={!!e?.sort}
                  aria-label={t('devices.metadata.sort')}
                  onChange={(ev) => patch(r.key, { sort: ev.target.value })}
                  data-testid="metadata-sort"
                />
                <div className="flex">
                  <Button
                    size="icon"
                    variant="ghost"
                    className="size-8"
                    disabled={!canEdit || index === 0}
                    aria-label={t('devices.metadata.up')}
                    onClick={() => edit(moveRow(rows, index, -1))}
                  >
                    <ArrowUpIcon />
                  </Button>
                  <Button
                    size="icon"
                    variant="ghost"
                    className="size-8"
                    disabled={!canEdit || index === rows.length - 1}
                    aria-label={t('devices.metadata.down')}
                    onClick={() => edit(moveRow(rows, index, 1))}
                  >
                    <ArrowDownIcon />
                  </Button>
                  <Button
                    size="icon"
                    variant="ghost"
                    className="size-8"
                    disabled={!canEdit}
                    aria-label={t('common.delete')}
                    onClick={() => edit(rows.filter((x) => x.key !== r.key))}
                    data-testid="metadata-remove"
                  >
                    <Trash2Icon className="text-destructive" />
                  </Button>
                </div>
              </div>
              {e && (
                <p className="text-xs text-destructive" role="alert" data-testid="metadata-error">
                  {Object.values(e).map(errorText).join(' ')}
                </p>
              )}
            </div>
          );
        })}
        {rows.length === 0 && <p className="text-sm text-muted-foreground">{t('devices.metadata.empty')}</p>}
        {canEdit && (
          <Button
            variant="outline"
            size="sm"
            className="self-start"
            onClick={() => edit(addRow(rows, known.find((f) => !rows.some((r) => r.data_field === f)) ?? ''))}
            data-testid="metadata-add"
          >
            <PlusIcon />
            {t('devices.metadata.add')}
          </Button>
        )}
      </SheetBody>
      {canEdit && (
        <SheetFooter>
          <Button variant="outline" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button
            disabled={errors.size > 0 || save.isPending || !touched}
            onClick={() =>
              save.mutate(
                { id: device.id, data_fields: toEntries(rows) },
                {
                  onSuccess: () => {
                    notifySuccess(t('devices.saved'));
                    onDone();
                  },
                },
              )
            }
            data-testid="metadata-save"
          >
            <SaveIcon />
            {t('common.save')}
          </Button>
        </SheetFooter>
      )}
    </>
  );
}
