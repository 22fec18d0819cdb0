import { useMutation } from '@tanstack/react-query';
import {
  BellIcon,
  Building2Icon,
  CompassIcon,
  CpuIcon,
  DropletsIcon,
  KeyRoundIcon,
  LayoutDashboardIcon,
  Loader2Icon,
  LockIcon,
  type LucideIcon,
  MapIcon,
  ParkingSquareIcon,
  PencilIcon,
  PlusIcon,
  RadioTowerIcon,
  ServerCrashIcon,
  SettingsIcon,
  SproutIcon,
  Trash2Icon,
  UsersIcon,
} from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { api } from '../../../lib/api-client';
import { EXTERNAL_LINKS } from '../../../lib/external-links';
import { cn } from '../../../lib/utils';
import { Demo, State } from './demo';

export function ErrorSection() {
  const { t } = useTranslation();
  return (
    <>
      <Demo title={t('sg.error.field')} description={t('sg.error.field-text')}>
        <div className="flex w-72 flex-col gap-1.5" data-invalid="true">
          <Label htmlFor="sg-error-email">
            {t('users.email')}
            <span className="ml-0.5 text-destructive">*</span>
          </Label>
          <p className="text-xs text-destructive" role="alert">
            {t('sg.error.email')}
          </p>
          <Input id="sg-error-email" aria-invalid defaultValue="anna@" />
        </div>
      </Demo>
      <Demo title={t('sg.error.page')}>
        <div className="flex w-full flex-col items-center gap-3 rounded-md border p-6 text-center">
          <ServerCrashIcon className="size-12 text-destructive" />
          <p className="text-3xl font-bold">500</p>
          <p className="text-muted-foreground">{t('message.page-load-failed')}</p>
        </div>
      </Demo>
    </>
  );
}

export function Page404Section() {
  const { t } = useTranslation();
  return (
    <Demo title={t('sg.page404.title')} className="flex-col items-center gap-3 text-center">
      <CompassIcon className="size-14 text-primary" />
      <p className="text-3xl font-bold">{t('message.page-not-found')}</p>
      <p className="max-w-md text-muted-foreground">{t('error-page.404-text')}</p>
      <Button asChild variant="outline">
        <a href="/no-such-page">{t('sg.page404.try')}</a>
      </Button>
    </Demo>
  );
}

const BADGES = ['default', 'secondary', 'outline', 'destructive', 'warning'] as const;

export function MiscSection() {
  const { t } = useTranslation();
  return (
    <>
      <Demo title={t('sg.misc.badges')}>
        {BADGES.map((variant) => (
          <State key={variant} name={variant}>
            <Badge variant={variant}>{t('styleguide.badge')}</Badge>
          </State>
        ))}
      </Demo>
      <Demo title={t('sg.misc.progress')}>
        {[0, 40, 100].map((value) => (
          <State key={value} name={`${value} %`}>
            <div
              role="progressbar"
              aria-valuenow={value}
              aria-valuemin={0}
              aria-valuemax={100}
              className="h-2 w-40 overflow-hidden rounded-full bg-muted"
            >
              <div className="h-full bg-primary" style={{ width: `${value}%` }} />
            </div>
          </State>
        ))}
        <State name="spinner">
          <Loader2Icon className="size-5 animate-spin text-muted-foreground" />
        </State>
      </Demo>
    </>
  );
}

export function ElementsSection() {
  const { t } = useTranslation();
  return (
    <Demo title={t('sg.elements.title')}>
      <State name="link">
        <a href="#top" className="text-primary underline-offset-4 hover:underline">
          {t('sg.elements.link')}
        </a>
      </State>
      <State name="kbd">
        <kbd className="rounded border bg-muted px-1.5 py-0.5 font-mono text-xs">Ctrl K</kbd>
      </State>
      <State name="code">
        <code className="rounded bg-muted px-1 font-mono text-sm">eui-0042</code>
      </State>
      <State name="separator">
        <hr className="w-40" />
      </State>
      <State name="avatar">
        <span className="flex size-9 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground">
          AA
        </span>
      </State>
    </Demo>
  );
}

export function DisplaySection() {
  const { t } = useTranslation();
  return (
    <Demo title={t('sg.display.title')} description={t('sg.display.text')}>
      <State name="hidden sm:block">
        <span className="hidden rounded bg-muted px-2 sm:block">{t('sg.display.wide')}</span>
      </State>
      <State name="block sm:hidden">
        <span className="block rounded bg-muted px-2 sm:hidden">{t('sg.display.narrow')}</span>
      </State>
      <State name="inline-flex">
        <span className="inline-flex gap-1 rounded bg-muted px-2">
          <CpuIcon className="size-4" />
          inline-flex
        </span>
      </State>
    </Demo>
  );
}

const BOX = 'rounded bg-primary/15 px-3 py-2 font-mono text-xs';

export function FlexboxSection() {
  const { t } = useTranslation();
  return (
    <Demo title={t('sg.flexbox.title')} className="flex-col items-stretch">
      {['justify-start', 'justify-center', 'justify-between', 'justify-end'].map((justify) => (
        <State key={justify} name={`flex ${justify}`}>
          <div className={cn('flex w-full gap-2 rounded border p-2', justify)}>
            {[1, 2, 3].map((n) => (
              <span key={n} className={BOX}>
                {n}
              </span>
            ))}
          </div>
        </State>
      ))}
    </Demo>
  );
}

export function GridSection() {
  const { t } = useTranslation();
  return (
    <Demo title={t('sg.grid.title')} description={t('sg.grid.text')} className="block">
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-4">
        {Array.from({ length: 8 }, (_, i) => (
          <span key={String(i)} className={BOX}>
            col {i + 1}
          </span>
        ))}
      </div>
    </Demo>
  );
}

export function SpacingSection() {
  const { t } = useTranslation();
  return (
    <Demo title={t('sg.spacing.title')} className="flex-col items-start">
      {['p-1', 'p-2', 'p-4', 'p-6', 'p-8'].map((space) => (
        <State key={space} name={space}>
          <div className="rounded border border-dashed">
            <div className={cn(space)}>
              <span className={BOX}>{space}</span>
            </div>
          </div>
        </State>
      ))}
    </Demo>
  );
}

export function ElevationSection() {
  const { t } = useTranslation();
  return (
    <Demo title={t('sg.elevation.title')}>
      {['shadow-none', 'shadow-xs', 'shadow-sm', 'shadow-md', 'shadow-lg', 'shadow-xl'].map((shadow) => (
        <State key={shadow} name={shadow}>
          <div className={cn('size-24 rounded-lg border bg-card', shadow)} />
        </State>
      ))}
    </Demo>
  );
}

export function TypographySection() {
  const { t } = useTranslation();
  return (
    <Demo title={t('sg.typography.title')} className="flex-col items-start">
      <h1 className="text-3xl font-bold">{t('sg.typography.heading', { n: 1 })}</h1>
      <h2 className="text-2xl font-semibold">{t('sg.typography.heading', { n: 2 })}</h2>
      <h3 className="text-xl font-semibold">{t('sg.typography.heading', { n: 3 })}</h3>
      <h4 className="text-lg font-medium">{t('sg.typography.heading', { n: 4 })}</h4>
      <p className="max-w-prose">{t('sg.sample.paragraph')}</p>
      <p className="text-sm text-muted-foreground">{t('sg.typography.muted')}</p>
    </Demo>
  );
}

export function TextSection() {
  const { t } = useTranslation();
  return (
    <Demo title={t('sg.text.title')} className="flex-col items-start">
      <p className="font-semibold">font-semibold</p>
      <p className="italic">italic</p>
      <p className="text-primary">text-primary</p>
      <p className="text-destructive">text-destructive</p>
      <p className="text-muted-foreground">text-muted-foreground</p>
      <p className="w-48 truncate" title={t('sg.sample.paragraph')}>
        {t('sg.sample.paragraph')}
      </p>
      <p className="font-mono tabular-nums">1.234,56 · 21,5 °C</p>
    </Demo>
  );
}

/** The icons the console uses for its entities and actions (lucide). */
const ICONS: [string, LucideIcon][] = [
  ['LayoutDashboard', LayoutDashboardIcon],
  ['Cpu', CpuIcon],
  ['RadioTower', RadioTowerIcon],
  ['Bell', BellIcon],
  ['Users', UsersIcon],
  ['Building2', Building2Icon],
  ['Map', MapIcon],
  ['ParkingSquare', ParkingSquareIcon],
  ['Sprout', SproutIcon],
  ['Droplets', DropletsIcon],
  ['KeyRound', KeyRoundIcon],
  ['Lock', LockIcon],
  ['Pencil', PencilIcon],
  ['Trash2', Trash2Icon],
  ['Plus', PlusIcon],
  ['Settings', SettingsIcon],
];

export function IconsSection() {
  const { t } = useTranslation();
  return (
    <Demo title={t('sg.icons.title')} description={t('sg.icons.text')}>
      {ICONS.map(([name, Icon]) => (
        <State key={name} name={name}>
          <Icon className="size-6" />
        </State>
      ))}
    </Demo>
  );
}

/** A real API call through the console's client: its pending, success and error states. */
export function ApiSection() {
  const { t } = useTranslation();
  const good = useMutation({ mutationFn: () => api<{ id: number; email: string }>('/core/user') });
  const bad = useMutation({ mutationFn: () => api<unknown>('/core/devices/0') });
  const state = (m: { isPending: boolean; isSuccess: boolean; isError: boolean }) =>
    m.isPending ? 'pending' : m.isSuccess ? 'success' : m.isError ? 'error' : 'idle';
  return (
    <>
      <Demo title={t('sg.api.calls')} description={t('sg.api.calls-text')}>
        <State name={state(good)}>
          <Button variant="outline" onClick={() => good.mutate()} data-testid="styleguide-api-ok">
            GET /core/user
          </Button>
        </State>
        <State name={state(bad)}>
          <Button variant="outline" onClick={() => bad.mutate()} data-testid="styleguide-api-error">
            GET /core/devices/0
          </Button>
        </State>
        {good.data && (
          <pre className="rounded bg-muted p-2 text-xs" data-testid="styleguide-api-result">
            {JSON.stringify({ id: good.data.id, email: good.data.email })}
          </pre>
        )}
      </Demo>
      <Demo title={t('sg.api.docs')}>
        <Button asChild variant="link">
          <a href={EXTERNAL_LINKS.backendAdmin} target="_blank" rel="noreferrer">
            {t('sg.api.openapi')}
          </a>
        </Button>
      </Demo>
    </>
  );
}
