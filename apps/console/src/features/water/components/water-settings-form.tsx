import type { NwaDetails } from '@iot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { localeTag } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useUpdateWater } from '../api/water-api';

const MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

const parse = (text: string): number | null => (text.trim() === '' ? null : Number(text.replace(',', '.')));
const show = (value: number | null) => (value === null ? '' : String(value));

/** The water client edit dialog: the permit, the water year's first month and each member's allowance. */
export function WaterSettingsForm({ nwa, onDone }: { nwa: NwaDetails; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const save = useUpdateWater(nwa.id);
  const [perHour, setPerHour] = useState(show(nwa.settings.max_flow_per_hour));
  const [perYear, setPerYear] = useState(show(nwa.settings.max_volume_per_year));
  const [month, setMonth] = useState(String(nwa.settings.water_year_start_month));
  const [membersSee, setMembersSee] = useState(nwa.settings.members_see_shared_devices);
  const [closeValves, setCloseValves] = useState(nwa.settings.close_valves_at_limit);
  const [allowances, setAllowances] = useState(
    nwa.members.map((m) => ({
      id: m.company_id,
      name: m.name,
      year: show(m.allowance_per_year),
      hour: show(m.allowance_per_hour),
    })),
  );
  const setAllowance = (id: number, key: 'year' | 'hour', value: string) =>
    setAllowances((list) => list.map((a) => (a.id === id ? { ...a, [key]: value } : a)));
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    save.mutate(
      {
        max_flow_per_hour: parse(perHour),
        max_volume_per_year: parse(perYear),
        water_year_start_month: Number(month),
        members_see_shared_devices: membersSee,
        close_valves_at_limit: closeValves,
        allowances: allowances.map((a) => ({
          company_id: a.id,
          allowance_per_hour: parse(a.hour),
          allowance_per_year: parse(a.year),
        })),
      },
      {
        onSuccess: () => {
          notifySuccess(t('water.saved'));
          onDone();
        },
      },
    );
  };
  return (
    <form className="flex flex-col gap-3" onSubmit={submit} data-testid="water-settings-form">
      <Label className="flex flex-col items-start gap-1">
        {t('water.permit-hour')}
        <Input inputMode="decimal" value={perHour} onChange={(e) => setPerHour(e.target.value)} />
      </Label>
      <Label className="flex flex-col items-start gap-1">
        {t('water.permit-year')}
        <Input inputMode="decimal" value={perYear} onChange={(e) => setPerYear(e.target.value)} />
      </Label>
      <Label className="flex flex-col items-start gap-1">
        {t('water.year-start-month')}
        <NativeSelect value={month} onChange={(e) => setMonth(e.target.value)}>
          {MONTHS.map((m) => (
            <option key={m} value={m}>
              {new Intl.DateTimeFormat(localeTag(i18n.language), { month: 'long' }).format(
                new Date(2026, m - 1, 1),
              )}
            </option>
          ))}
        </NativeSelect>
      </Label>
      <Label className="flex items-center gap-2">
        <input type="checkbox" checked={membersSee} onChange={(e) => setMembersSee(e.target.checked)} />
        {t('water.members-see-shared')}
      </Label>
      <Label className="flex items-center gap-2">
        <input
          type="checkbox"
          checked={closeValves}
          onChange={(e) => setCloseValves(e.target.checked)}
          data-testid="water-close-valves"
        />
        {t('water.close-valves-at-limit')}
      </Label>
      {allowances.map((a) => (
        <div key={a.id} className="grid grid-cols-3 items-center gap-2">
          <span className="text-sm font-medium">{a.name}</span>
          <Input
            inputMode="decimal"
            aria-label={t('water.allowance')}
            placeholder={t('water.allowance')}
            value={a.year}
            onChange={(e) => setAllowance(a.id, 'year', e.target.value)}
          />
          <Input
            inputMode="decimal"
            aria-label={t('water.allowance-hour')}
            placeholder={t('water.allowance-hour')}
            value={a.hour}
            onChange={(e) => setAllowance(a.id, 'hour', e.target.value)}
          />
        </div>
      ))}
      <Button type="submit" disabled={save.isPending}>
        {t('common.save')}
      </Button>
    </form>
  );
}
