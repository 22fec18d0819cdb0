import { TIME_RANGES } from '@iot/domain';
import { PlusIcon, SaveIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { CheckboxList } from '../../../components/ui/checkbox-list';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import type { Device } from '../../../types/device';
import type { ChartSeriesSetting, Widget } from '../types';
import { availableFields, fieldLabel } from '../widget-fields';
import { periodToSettings } from '../widget-layout';

/** The settings form of one widget (a dialog body): the title plus what its type needs. */
export function WidgetSettingsForm({
  widget,
  devices,
  onSave,
  onCancel,
}: {
  widget: Widget;
  devices: readonly Device[];
  onSave: (widget: Widget) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Widget>(widget);
  const deviceOptions = devices.map((d) => ({ value: String(d.id), label: d.name }));
  const allFields = availableFields(devices);
  const fieldsOf = (ids: readonly number[]) =>
    availableFields(ids.length > 0 ? devices.filter((d) => ids.includes(d.id)) : devices);

  return (
    <form
      className="flex max-h-[70vh] flex-col gap-4 overflow-auto"
      data-testid="widget-settings-form"
      onSubmit={(e) => {
        e.preventDefault();
        onSave(draft);
      }}
    >
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="widget-title">{t('dashboards.widget-title')}</Label>
        <Input
          id="widget-title"
          value={draft.title}
          onChange={(e) => setDraft({ ...draft, title: e.target.value })}
          data-testid="widget-title"
        />
      </div>
      {draft.type === 'table' && (
        <>
          <div className="flex flex-col gap-1.5">
            <Label>{t('dashboards.devices')}</Label>
            <CheckboxList
              options={deviceOptions}
              value={draft.settings.device_ids.map(String)}
              onChange={(ids) =>
                setDraft({ ...draft, settings: { ...draft.settings, device_ids: ids.map(Number) } })
              }
              testId="widget-devices"
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label>{t('dashboards.fields')}</Label>
            <CheckboxList
              options={fieldsOf(draft.settings.device_ids).map((f) => ({ value: f, label: fieldLabel(f) }))}
              value={draft.settings.data_fields}
              onChange={(fields) =>
                setDraft({ ...draft, settings: { ...draft.settings, data_fields: fields } })
              }
              testId="widget-fields"
            />
          </div>
        </>
      )}
      {draft.type === 'line_chart' && (
        <>
          <div className="flex flex-col gap-2" data-testid="widget-series">
            <Label>{t('dashboards.series')}</Label>
            {draft.settings.series.map((s, i) => {
              const update = (next: ChartSeriesSetting | null) => {
                const series = [...draft.settings.series];
                if (next) series[i] = next;
                else series.splice(i, 1);
                setDraft({ ...draft, settings: { ...draft.settings, series } });
              };
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their position
                <div key={i} className="flex items-center gap-2" data-testid={`widget-series-${i}`}>
                  <Select
                    value={String(s.device_id)}
                    onValueChange={(v) => update({ ...s, device_id: Number(v) })}
                  >
                    <SelectTrigger className="flex-1" data-testid={`widget-series-${i}-device`}>
                      <SelectValue placeholder={t('dashboards.device')} />
                    </SelectTrigger>
                    <SelectContent>
                      {deviceOptions.map((o) => (
                        <SelectItem key={o.value} value={o.value}>
                          {o.label}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                  <Select value={s.data_field} onValueChange={(v) => update({ ...s, data_field: v })}>
                    <SelectTrigger className="flex-1" data-testid={`widget-series-${i}-field`}>
                      <SelectValue placeholder={t('dashboards.field')} />
                    </SelectTrigger>
                    <SelectContent>
                      {fieldsOf([s.device_id]).map((f) => (
                        <SelectItem key={f} value={f}>
                          {fieldLabel(f)}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                  <Button
                    size="icon"
                    variant="ghost"
                    aria-label={t('common.delete')}
                    onClick={() => update(null)}
                    data-testid={`widget-series-${i}-remove`}
                  >
                    <Trash2Icon />
                  </Button>
                </div>
              );
            })}
            <Button
              variant="outline"
              className="self-start"
              disabled={devices.length === 0}
              onClick={() => {
                const first = devices[0];
                if (!first) return;
                const field = fieldsOf([first.id])[0] ?? '';
                setDraft({
                  ...draft,
                  settings: {
                    ...draft.settings,
                    series: [...draft.settings.series, { device_id: first.id, data_field: field }],
                  },
                });
              }}
              data-testid="widget-series-add"
            >
              <PlusIcon />
              {t('dashboards.add-series')}
            </Button>
          </div>
          <div className="flex flex-col gap-1.5">
            <Label>{t('devices.period.ranges')}</Label>
            <Select
              value={typeof draft.settings.range === 'string' ? draft.settings.range : ''}
              onValueChange={(v) =>
                setDraft({
                  ...draft,
                  settings: {
                    series: draft.settings.series,
                    ...periodToSettings({ kind: 'last', span: v as (typeof TIME_RANGES)[number] }),
                  },
                })
              }
            >
              <SelectTrigger data-testid="widget-range">
                <SelectValue placeholder={t('dashboards.range-in-widget')} />
              </SelectTrigger>
              <SelectContent>
                {TIME_RANGES.map((r) => (
                  <SelectItem key={r} value={r} data-testid={`widget-range-${r}`}>
                    {t(`devices.period.last-${r}`)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        </>
      )}
      {draft.type === 'map' && (
        <>
          <div className="flex flex-col gap-1.5">
            <Label>{t('dashboards.color-by')}</Label>
            <Select
              value={draft.settings.color_by}
              onValueChange={(v) =>
                setDraft({
                  ...draft,
                  settings: {
                    ...draft.settings,
                    color_by: v as 'state' | 'field',
                    ...(v === 'field' ? { data_field: draft.settings.data_field ?? allFields[0] ?? '' } : {}),
                  },
                })
              }
            >
              <SelectTrigger data-testid="widget-color-by">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="state" data-testid="widget-color-by-state">
                  {t('dashboards.color-by-state')}
                </SelectItem>
                <SelectItem value="field" data-testid="widget-color-by-field">
                  {t('dashboards.color-by-field')}
                </SelectItem>
              </SelectContent>
            </Select>
          </div>
          {draft.settings.color_by === 'field' && (
            <div className="flex flex-col gap-1.5">
              <Label>{t('dashboards.field')}</Label>
              <Select
                value={draft.settings.data_field ?? ''}
                onValueChange={(v) => setDraft({ ...draft, settings: { ...draft.settings, data_field: v } })}
              >
                <SelectTrigger data-testid="widget-map-field">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {allFields.map((f) => (
                    <SelectItem key={f} value={f}>
                      {fieldLabel(f)}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
          )}
          <div className="flex flex-col gap-1.5">
            <Label>{t('dashboards.map-devices')}</Label>
            <CheckboxList
              options={deviceOptions}
              value={(draft.settings.device_ids ?? []).map(String)}
              onChange={(ids) =>
                setDraft({ ...draft, settings: { ...draft.settings, device_ids: ids.map(Number) } })
              }
              testId="widget-devices"
            />
          </div>
        </>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onCancel} data-testid="widget-settings-cancel">
          {t('common.cancel')}
        </Button>
        <Button type="submit" data-testid="widget-settings-apply">
          <SaveIcon />
          {t('dashboards.apply')}
        </Button>
      </div>
    </form>
  );
}
