import { useTranslation } from 'react-i18next';
import { SheetBody } from '../../../components/ui/sheet';
import { useDevices } from '../../../lib/devices/get-devices';
import type { Group } from '../types';

/** View group drawer body: description and the group's devices (no restriction, spec section 6). */
export function GroupView({ group }: { group: Group }) {
  const { t } = useTranslation();
  const devices = useDevices();
  const members = (devices.data ?? []).filter((d) => group.device_ids.includes(d.id));
  return (
    <SheetBody className="flex flex-col gap-4 py-2" data-testid="group-view">
      <div>
        <p className="text-xs text-muted-foreground">{t('groups.description')}</p>
        <p data-testid="group-view-description">{group.description || '–'}</p>
      </div>
      <div>
        <p className="text-xs text-muted-foreground">{t('groups.devices')}</p>
        <ul className="mt-1 flex flex-col gap-1" data-testid="group-view-devices">
          {members.map((d) => (
            <li
              key={d.id}
              className="rounded border px-2 py-1 text-sm"
              data-testid={`group-view-device-${d.id}`}
            >
              {d.name}
            </li>
          ))}
          {members.length === 0 && <li className="text-sm text-muted-foreground">{t('common.no-data')}</li>}
        </ul>
      </div>
    </SheetBody>
  );
}
