import { DownloadIcon } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/shell/page-header';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { useCurrentUser } from '../../../lib/auth';
import { useDevices } from '../../../lib/devices/get-devices';
import { downloadText } from '../../../lib/download-text';
import { useUrlTableState } from '../../../lib/use-url-table-state';
import type { Device } from '../../../types/device';
import { filterDevices, filterOptions } from '../device-filters';
import { buildDeviceListCsv } from '../device-list-csv';
import { useCanEditDevices } from './can-edit';
import { useDeviceDrawers } from './device-drawers';
import { DeviceImportDialog } from './device-import-dialog';
import { useDeviceColumns } from './device-table-columns';
import { DevicesTable } from './devices-table';
import { DevicesToolbar } from './devices-toolbar';
import { useDeviceListFilter } from './use-device-list-filter';
import { useLinkedDevice } from './use-linked-device';
import { VirtualDeviceDialog } from './virtual-device-dialog';

const NO_DEVICES: Device[] = [];

/** The /devices/:filter? screen: virtualized device table with search, filters and sorting in the URL. */
export function DevicesPage() {
  const { t } = useTranslation();
  const devices = useDevices();
  const drawers = useDeviceDrawers();
  const editable = useCanEditDevices();
  // Only ROLE_ADMIN may add a virtual device (spec section 6).
  const admin = useCurrentUser()?.roles.includes('ROLE_ADMIN') ?? false;
  const { sorting, setSorting } = useUrlTableState([{ id: 'name', desc: false }]);
  const { filter, params, search, setSearch, apply } = useDeviceListFilter();
  // The list is judged against one "now" per load, so stale and last-online do not flicker while scrolling.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (devices.dataUpdatedAt) setNow(Date.now());
  }, [devices.dataUpdatedAt]);
  useLinkedDevice({ devices: devices.data, filter, params, drawers });

  const all = devices.data ?? NO_DEVICES;
  const options = useMemo(() => filterOptions(all), [all]);
  const rows = useMemo(() => filterDevices(all, filter, now), [all, filter, now]);
  const columns = useDeviceColumns(now);

  return (
    <div className="flex flex-col gap-4" data-testid="devices-page">
      <PageHeader
        title={t('page.devices')}
        actions={
          <div className="flex gap-2">
            <Input
              placeholder={t('common.search')}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              className="w-64"
              data-testid="devices-search"
            />
            {admin && <VirtualDeviceDialog devices={all} />}
            {editable && <DeviceImportDialog />}
            <Button
              variant="outline"
              onClick={() => downloadText(buildDeviceListCsv(rows), 'devices.csv')}
              data-testid="devices-export-csv"
            >
              <DownloadIcon />
              {t('devices.export-csv')}
            </Button>
          </div>
        }
      />
      <DevicesToolbar
        filter={filter}
        params={params}
        apply={apply}
        options={options}
        shown={rows.length}
        total={all.length}
      />
      <DevicesTable
        rows={rows}
        columns={columns}
        sorting={sorting}
        onSortingChange={setSorting}
        onOpen={drawers.openDevice}
        pending={devices.isPending}
      />
    </div>
  );
}
