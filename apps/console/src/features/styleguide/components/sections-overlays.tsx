import {
  CheckCircle2Icon,
  CircleAlertIcon,
  CpuIcon,
  InfoIcon,
  MoreHorizontalIcon,
  RadioTowerIcon,
  TriangleAlertIcon,
  UserIcon,
} from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useOverlay } from '../../../components/shell/overlay-host';
import { Button } from '../../../components/ui/button';
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '../../../components/ui/card';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { SheetBody } from '../../../components/ui/sheet';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { Tooltip, TooltipContent, TooltipTrigger } from '../../../components/ui/tooltip';
import { notifyError, notifyInfo, notifySuccess } from '../../../lib/notify';
import { cn } from '../../../lib/utils';
import { Demo } from './demo';

export function PanelSection() {
  const { t } = useTranslation();
  return (
    <>
      <Demo title={t('sg.panel.card')}>
        <Card className="w-72">
          <CardHeader>
            <CardTitle>Kühlraum 1</CardTitle>
            <CardDescription>{t('sg.panel.card-text')}</CardDescription>
          </CardHeader>
          <CardContent className="text-sm">{t('sg.sample.paragraph')}</CardContent>
          <CardFooter className="gap-2">
            <Button size="sm">{t('common.save')}</Button>
            <Button size="sm" variant="ghost">
              {t('common.cancel')}
            </Button>
          </CardFooter>
        </Card>
      </Demo>
      <Demo title={t('sg.panel.tabs')}>
        <Tabs defaultValue="one" className="w-96">
          <TabsList>
            <TabsTrigger value="one">{t('sg.sample.option', { n: 1 })}</TabsTrigger>
            <TabsTrigger value="two">{t('sg.sample.option', { n: 2 })}</TabsTrigger>
            <TabsTrigger value="three" disabled>
              {t('sg.sample.option', { n: 3 })}
            </TabsTrigger>
          </TabsList>
          <TabsContent value="one" className="p-2 text-sm">
            {t('sg.sample.paragraph')}
          </TabsContent>
          <TabsContent value="two" className="p-2 text-sm">
            {t('sg.panel.second-tab')}
          </TabsContent>
        </Tabs>
      </Demo>
      <Demo title={t('sg.panel.collapsible')}>
        <details className="w-96 rounded-md border p-3 text-sm" open>
          <summary className="cursor-pointer font-medium">{t('sg.panel.details')}</summary>
          <p className="mt-2 text-muted-foreground">{t('sg.sample.paragraph')}</p>
        </details>
      </Demo>
    </>
  );
}

/** The overlay host's drawers (two stacked, three header kinds), dialog, confirm, tooltip and menu. */
export function OverlaySection() {
  const { t } = useTranslation();
  const overlay = useOverlay();
  const body = () => (
    <SheetBody className="py-4 text-sm text-muted-foreground">{t('styleguide.drawer-body')}</SheetBody>
  );
  return (
    <>
      <Demo title={t('sg.overlay.drawers')}>
        <Button
          variant="outline"
          data-testid="styleguide-drawer-offline"
          onClick={() =>
            overlay.openDrawer({
              header: {
                name: 'Gateway Nord',
                icon: <RadioTowerIcon />,
                is_active: false,
                identifier: 'eui-0042',
                id: 42,
              },
              render: body,
            })
          }
        >
          {t('styleguide.drawer-offline')}
        </Button>
        <Button
          variant="outline"
          data-testid="styleguide-drawer-auth"
          onClick={() =>
            overlay.openDrawer({
              header: {
                name: 'Button 7',
                icon: <CpuIcon />,
                is_active: true,
                authentication_id: 'AUTH-7',
                id: 7,
              },
              render: (close) => (
                <SheetBody className="py-4">
                  <Button
                    data-testid="styleguide-drawer-second"
                    onClick={() =>
                      overlay.openDrawer(
                        { header: { name: 'Wide', icon: <CpuIcon />, id: 8 }, wide: true, render: body },
                        1,
                      )
                    }
                  >
                    {t('styleguide.second-drawer')}
                  </Button>
                  <Button variant="ghost" onClick={close}>
                    {t('common.close')}
                  </Button>
                </SheetBody>
              ),
            })
          }
        >
          {t('styleguide.drawer-device')}
        </Button>
        <Button
          variant="outline"
          data-testid="styleguide-drawer-user"
          onClick={() =>
            overlay.openDrawer({
              header: { name: 'Anna Admin', icon: <UserIcon />, email: 'anna@demo.test', id: 3 },
              render: body,
            })
          }
        >
          {t('styleguide.drawer-user')}
        </Button>
      </Demo>
      <Demo title={t('sg.overlay.dialogs')}>
        <Button
          variant="outline"
          data-testid="styleguide-dialog"
          onClick={() =>
            overlay.openDialog({
              title: t('styleguide.dialog'),
              render: (close) => <Button onClick={close}>{t('common.close')}</Button>,
            })
          }
        >
          {t('styleguide.dialog')}
        </Button>
        <Button
          variant="outline"
          data-testid="styleguide-confirm"
          onClick={() =>
            void overlay.confirm({
              title: t('common.delete'),
              message: t('sg.crud.delete', { name: 'Kühlraum 1' }),
              destructive: true,
            })
          }
        >
          {t('sg.overlay.confirm')}
        </Button>
      </Demo>
      <Demo title={t('sg.overlay.popups')}>
        <Tooltip>
          <TooltipTrigger asChild>
            <Button variant="outline">{t('sg.overlay.tooltip')}</Button>
          </TooltipTrigger>
          <TooltipContent>{t('sg.overlay.tooltip-text')}</TooltipContent>
        </Tooltip>
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="outline" size="icon" aria-label={t('sg.overlay.menu')}>
              <MoreHorizontalIcon />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent>
            <DropdownMenuLabel>Kühlraum 1</DropdownMenuLabel>
            <DropdownMenuItem>{t('common.edit')}</DropdownMenuItem>
            <DropdownMenuItem disabled>{t('sg.sample.locked-option')}</DropdownMenuItem>
            <DropdownMenuSeparator />
            <DropdownMenuItem className="text-destructive">{t('common.delete')}</DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </Demo>
    </>
  );
}

/** The menu page's steps (spec section 2: menu with seat, payment and confirmation). */
export const MENU_STEPS = ['menu', 'menu/seat', 'menu/payment', 'menu/confirmation'] as const;
type MenuStep = (typeof MENU_STEPS)[number];

function Steps({ current }: { current: MenuStep }) {
  const { t } = useTranslation();
  const at = MENU_STEPS.indexOf(current);
  return (
    <ol className="flex w-full flex-wrap gap-2" data-testid="styleguide-steps">
      {MENU_STEPS.map((step, i) => (
        <li
          key={step}
          aria-current={i === at ? 'step' : undefined}
          className={cn(
            'flex items-center gap-2 rounded-full border px-3 py-1 text-sm',
            i < at && 'border-primary text-primary',
            i === at && 'bg-primary text-primary-foreground',
          )}
        >
          <span className="font-mono text-xs">{i + 1}</span>
          {t(`sg.menu.step.${i}` as 'sg.menu.step.0')}
        </li>
      ))}
    </ol>
  );
}

export function MenuSection({ step }: { step: MenuStep }) {
  const { t } = useTranslation();
  const at = MENU_STEPS.indexOf(step);
  const overlay = useOverlay();
  return (
    <Demo title={t('sg.menu.title')} description={t('sg.menu.text')} className="flex-col items-stretch">
      <Steps current={step} />
      <p className="text-sm" data-testid="styleguide-step-body">
        {t(`sg.menu.body.${at}` as 'sg.menu.body.0')}
      </p>
      <div className="flex gap-2">
        {at > 0 && (
          <Button variant="outline" asChild>
            <Link to={`/styleguide/${MENU_STEPS[at - 1]}`}>{t('common.back')}</Link>
          </Button>
        )}
        {at < MENU_STEPS.length - 1 ? (
          <Button asChild>
            <Link to={`/styleguide/${MENU_STEPS[at + 1]}`} data-testid="styleguide-step-next">
              {t('sg.menu.next')}
            </Link>
          </Button>
        ) : (
          <Button
            onClick={() =>
              overlay.openDialog({
                title: t('sg.menu.done'),
                render: (close) => <Button onClick={close}>{t('common.close')}</Button>,
              })
            }
          >
            {t('sg.menu.finish')}
          </Button>
        )}
      </div>
    </Demo>
  );
}

const MESSAGE_KINDS = [
  {
    kind: 'info',
    icon: InfoIcon,
    className: 'border-sky-300 bg-sky-50 text-sky-900 dark:bg-sky-950 dark:text-sky-100',
  },
  {
    kind: 'success',
    icon: CheckCircle2Icon,
    className: 'border-emerald-300 bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100',
  },
  {
    kind: 'warning',
    icon: TriangleAlertIcon,
    className: 'border-amber-300 bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
  },
  {
    kind: 'error',
    icon: CircleAlertIcon,
    className: 'border-destructive/40 bg-destructive/10 text-destructive',
  },
] as const;

export function MessagesSection() {
  const { t } = useTranslation();
  return (
    <>
      <Demo title={t('sg.messages.toasts')} description={t('sg.messages.toasts-text')}>
        <Button
          variant="outline"
          data-testid="styleguide-toast-error"
          onClick={() => notifyError(t('styleguide.toast'), t('styleguide.toast-detail'))}
        >
          {t('styleguide.toast-error')}
        </Button>
        <Button
          variant="outline"
          data-testid="styleguide-toast-success"
          onClick={() => notifySuccess(t('styleguide.toast'))}
        >
          {t('styleguide.toast-success')}
        </Button>
        <Button
          variant="outline"
          data-testid="styleguide-toast-info"
          onClick={() => notifyInfo(t('styleguide.toast'))}
        >
          {t('styleguide.toast-info')}
        </Button>
      </Demo>
      <Demo title={t('sg.messages.inline')} className="flex-col items-stretch">
        {MESSAGE_KINDS.map(({ kind, icon: Icon, className }) => (
          <div
            key={kind}
            role={kind === 'error' ? 'alert' : 'status'}
            className={cn('flex items-center gap-2 rounded-md border px-3 py-2 text-sm', className)}
          >
            <Icon className="size-4" />
            {t(`sg.messages.${kind}` as 'sg.messages.info')}
          </div>
        ))}
      </Demo>
    </>
  );
}
