import type { ColumnDef } from '@tanstack/react-table';
import {
  ChevronRightIcon,
  FolderIcon,
  InboxIcon,
  PencilIcon,
  PlusIcon,
  RadioTowerIcon,
  Trash2Icon,
} from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UplotChart } from '../../../components/chart/uplot-chart';
import { DataTable } from '../../../components/data-table/data-table';
import { useSortedTable } from '../../../components/data-table/use-sorted-table';
import { LazyDeviceMap } from '../../../components/map/lazy-device-map';
import { useMapStyleUrl } from '../../../components/map/use-map-style';
import { useOverlay } from '../../../components/shell/overlay-host';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { formatNumber } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { Demo, State } from './demo';

interface SampleDevice {
  id: number;
  name: string;
  temperature: number;
  online: boolean;
}

const SAMPLE_DEVICES: SampleDevice[] = [
  { id: 1, name: 'Kühlraum 1', temperature: 3.8, online: true },
  { id: 2, name: 'Kühlraum 2', temperature: 5.1, online: true },
  { id: 3, name: 'Gateway Nord', temperature: 18.4, online: false },
];

function useSampleColumns(actions?: (d: SampleDevice) => React.ReactNode): ColumnDef<SampleDevice>[] {
  const { t, i18n } = useTranslation();
  return [
    { accessorKey: 'id', header: 'ID' },
    { accessorKey: 'name', header: t('sg.sample.name') },
    {
      accessorKey: 'temperature',
      header: t('sg.sample.temperature'),
      cell: ({ row }) => `${formatNumber(row.original.temperature, i18n.language)} °C`,
    },
    {
      accessorKey: 'online',
      header: t('sg.sample.state'),
      cell: ({ row }) =>
        row.original.online ? (
          <Badge variant="secondary">{t('sg.sample.online')}</Badge>
        ) : (
          <Badge variant="warning">{t('drawer.offline')}</Badge>
        ),
    },
    ...(actions
      ? ([
          { id: 'actions', header: '', enableSorting: false, cell: ({ row }) => actions(row.original) },
        ] as ColumnDef<SampleDevice>[])
      : []),
  ];
}

function SampleTable({ data, testId, empty }: { data: SampleDevice[]; testId: string; empty: string }) {
  const table = useSortedTable({
    data,
    columns: useSampleColumns(),
    initialSort: [{ id: 'name', desc: false }],
  });
  return (
    <DataTable
      table={table}
      testId={testId}
      rowTestId={(r) => `${testId}-row-${r.original.id}`}
      empty={empty}
    />
  );
}

export function TableSection() {
  const { t } = useTranslation();
  return (
    <>
      <Demo title={t('sg.table.sortable')} description={t('sg.table.sortable-text')} className="block">
        <SampleTable data={SAMPLE_DEVICES} testId="styleguide-table" empty={t('common.no-data')} />
      </Demo>
      <Demo title={t('sg.table.loading')} className="block">
        <SampleTable data={[]} testId="styleguide-table-loading" empty={t('common.loading')} />
      </Demo>
      <Demo title={t('sg.table.empty')} className="block">
        <SampleTable data={[]} testId="styleguide-table-empty" empty={t('common.no-data')} />
      </Demo>
    </>
  );
}

export function ListSection() {
  const { t } = useTranslation();
  const [selected, setSelected] = useState(1);
  return (
    <Demo title={t('sg.list.title')} description={t('sg.list.text')}>
      <ul className="w-80 divide-y rounded-md border" data-testid="styleguide-list">
        {SAMPLE_DEVICES.map((d) => (
          <li key={d.id}>
            <button
              type="button"
              onClick={() => setSelected(d.id)}
              aria-current={selected === d.id || undefined}
              className="flex w-full items-center gap-3 px-3 py-2 text-left text-sm hover:bg-accent aria-[current]:bg-primary/10"
            >
              <RadioTowerIcon className="size-4 text-muted-foreground" />
              <span className="flex-1">{d.name}</span>
              {!d.online && <Badge variant="warning">{t('drawer.offline')}</Badge>}
            </button>
          </li>
        ))}
      </ul>
    </Demo>
  );
}

interface TreeNode {
  label: string;
  children?: TreeNode[];
}

function TreeItem({ node }: { node: TreeNode }) {
  const [open, setOpen] = useState(true);
  if (!node.children) return <li className="py-0.5 pl-6 text-sm">{node.label}</li>;
  return (
    <li>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="flex items-center gap-1 py-0.5 text-sm font-medium"
      >
        <ChevronRightIcon className={`size-4 transition-transform ${open ? 'rotate-90' : ''}`} />
        <FolderIcon className="size-4 text-muted-foreground" />
        {node.label}
      </button>
      {open && (
        <ul className="ml-4 border-l pl-2">
          {node.children.map((child) => (
            <TreeItem key={child.label} node={child} />
          ))}
        </ul>
      )}
    </li>
  );
}

export function TreeSection() {
  const { t } = useTranslation();
  const tree: TreeNode = {
    label: t('sg.tree.company'),
    children: [
      { label: t('sg.tree.group', { n: 1 }), children: [{ label: 'Kühlraum 1' }, { label: 'Kühlraum 2' }] },
      { label: t('sg.tree.group', { n: 2 }), children: [{ label: 'Gateway Nord' }] },
    ],
  };
  return (
    <Demo title={t('sg.tree.title')} description={t('sg.tree.text')}>
      <ul data-testid="styleguide-tree">
        <TreeItem node={tree} />
      </ul>
    </Demo>
  );
}

/** Create, edit and delete on an in-memory list: the dialog, the confirm and the toasts of the console. */
export function CrudSection() {
  const { t } = useTranslation();
  const overlay = useOverlay();
  const [rows, setRows] = useState(SAMPLE_DEVICES);
  const edit = (device?: SampleDevice) =>
    overlay.openDialog({
      title: device ? t('common.edit') : t('sg.sample.add'),
      testId: 'styleguide-crud-dialog',
      render: (close) => (
        <form
          className="flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            const name = String(new FormData(e.currentTarget).get('name') ?? '').trim();
            if (!name) return;
            setRows((all) =>
              device
                ? all.map((d) => (d.id === device.id ? { ...d, name } : d))
                : [
                    ...all,
                    { id: Math.max(0, ...all.map((d) => d.id)) + 1, name, temperature: 20, online: true },
                  ],
            );
            notifySuccess(t('sg.crud.saved', { name }));
            close();
          }}
        >
          <Label htmlFor="sg-crud-name">{t('sg.sample.name')}</Label>
          <Input id="sg-crud-name" name="name" defaultValue={device?.name ?? ''} required />
          <Button type="submit" className="self-end">
            {t('common.save')}
          </Button>
        </form>
      ),
    });
  const remove = async (device: SampleDevice) => {
    const ok = await overlay.confirm({
      title: t('common.delete'),
      message: t('sg.crud.delete', { name: device.name }),
      confirmLabel: t('common.delete'),
      destructive: true,
    });
    if (ok) setRows((all) => all.filter((d) => d.id !== device.id));
  };
  const columns = useSampleColumns((d) => (
    <div className="flex gap-1">
      <Button size="icon" variant="ghost" aria-label={t('common.edit')} onClick={() => edit(d)}>
        <PencilIcon />
      </Button>
      <Button size="icon" variant="ghost" aria-label={t('common.delete')} onClick={() => void remove(d)}>
        <Trash2Icon className="text-destructive" />
      </Button>
    </div>
  ));
  const table = useSortedTable({ data: rows, columns, initialSort: [{ id: 'id', desc: false }] });
  return (
    <Demo title={t('sg.crud.title')} description={t('sg.crud.text')} className="flex-col items-stretch">
      <Button className="self-start" onClick={() => edit()} data-testid="styleguide-crud-add">
        <PlusIcon />
        {t('sg.sample.add')}
      </Button>
      <DataTable
        table={table}
        testId="styleguide-crud"
        rowTestId={(r) => `styleguide-crud-row-${r.original.id}`}
        empty={t('common.no-data')}
      />
    </Demo>
  );
}

export function EmptySection() {
  const { t } = useTranslation();
  return (
    <Demo title={t('sg.empty.title')}>
      <State name="empty state">
        <div className="flex w-80 flex-col items-center gap-2 rounded-md border border-dashed p-8 text-center">
          <InboxIcon className="size-10 text-muted-foreground" />
          <p className="font-medium">{t('sg.empty.heading')}</p>
          <p className="text-sm text-muted-foreground">{t('sg.empty.text')}</p>
          <Button size="sm">
            <PlusIcon />
            {t('sg.sample.add')}
          </Button>
        </div>
      </State>
      <State name="empty text">
        <p className="w-64 text-sm text-muted-foreground">{t('common.no-data')}</p>
      </State>
    </Demo>
  );
}

const HOUR = 3600;
const CHART_START = 1_767_225_600; // 2026-01-01T00:00Z: a fixed day, so the demo looks the same each time
const CHART_X = Array.from({ length: 25 }, (_, i) => CHART_START + i * HOUR);
const CHART_DATA: [number[], number[], number[]] = [
  CHART_X,
  CHART_X.map((_, i) => 4 + Math.sin(i / 3) * 1.5),
  CHART_X.map((_, i) => 60 + Math.cos(i / 4) * 10),
];

export function ChartSection() {
  const { t, i18n } = useTranslation();
  return (
    <Demo title={t('sg.chart.title')} description={t('sg.chart.text')} className="block">
      <UplotChart
        data={CHART_DATA}
        series={[
          { label: t('sg.sample.temperature'), format: (v) => `${formatNumber(v, i18n.language)} °C` },
          { label: t('sg.sample.humidity'), scale: '%', colorVar: '--chart-2' },
        ]}
        height={260}
        lang={i18n.language}
        testId="styleguide-chart"
      />
    </Demo>
  );
}

const MAP_POINTS = [
  { id: 1, longitude: 7.842, latitude: 47.999, color: [13, 148, 136] as [number, number, number] },
  { id: 2, longitude: 7.85, latitude: 47.995, color: [13, 148, 136] as [number, number, number] },
  { id: 3, longitude: 7.83, latitude: 48.004, color: [217, 119, 6] as [number, number, number] },
];

export function MapSection() {
  const { t } = useTranslation();
  const styleUrl = useMapStyleUrl();
  return (
    <Demo title={t('sg.map.title')} description={t('sg.map.text')} className="block">
      <div className="h-80">
        <LazyDeviceMap points={MAP_POINTS} styleUrl={styleUrl} testId="styleguide-map" />
      </div>
    </Demo>
  );
}
