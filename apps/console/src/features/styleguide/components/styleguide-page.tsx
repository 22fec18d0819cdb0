import { type FieldRules, rule } from '@iot/domain';
import { CpuIcon, RadioTowerIcon, UserIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { NavLink, useParams } from 'react-router';
import { useOverlay } from '../../../components/shell/overlay-host';
import { PageHeader } from '../../../components/shell/page-header';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { FormErrorMarker, FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { SheetBody } from '../../../components/ui/sheet';
import { notifyError, notifyInfo, notifySuccess } from '../../../lib/notify';
import { useDomainForm } from '../../../lib/use-domain-form';
import { cn } from '../../../lib/utils';

/** Styleguide sub-paths of spec section 2; one demo page serves them all. */
const SECTIONS = [
  'formlayout',
  'input',
  'floatlabel',
  'button',
  'table',
  'list',
  'tree',
  'panel',
  'overlay',
  'menu',
  'messages',
  'file',
  'chart',
  'map',
  'misc',
  'elements',
  'error',
  'display',
  'flexbox',
  'text',
  'icons',
  'grid',
  'spacing',
  'elevation',
  'typography',
  'crud',
  'page404',
  'empty',
  'api',
] as const;

const DEMO_RULES: FieldRules = {
  email: ['required', 'email'],
  count: ['required', 'integer', rule.range(1, 5)],
};

function DemoForm() {
  const { t } = useTranslation();
  const { form, summary } = useDomainForm<{ email: string; count: string }>(
    { email: '', count: '' },
    DEMO_RULES,
  );
  return (
    <form
      className="grid gap-4 sm:grid-cols-2"
      noValidate
      data-testid="styleguide-form"
      onSubmit={(e) => e.preventDefault()}
    >
      <FormField name="email" label={t('users.email')} required summary={summary} testId="styleguide-email">
        <Input id="email" data-testid="styleguide-email" {...form.register('email')} />
      </FormField>
      <FormField
        name="count"
        label={t('styleguide.count')}
        required
        summary={summary}
        testId="styleguide-count"
      >
        <Input id="count" data-testid="styleguide-count" {...form.register('count')} />
      </FormField>
      <div className="flex items-center gap-2 sm:col-span-2">
        <FormErrorMarker summary={summary} />
        <Button
          type="submit"
          className="ml-auto"
          disabled={!summary.canSubmit}
          data-testid="styleguide-submit"
        >
          {t('common.save')}
        </Button>
      </div>
    </form>
  );
}

/** UI demo (admin only): the kit's parts, the drawer header rules, dialogs and toasts. */
export function StyleguidePage() {
  const { t } = useTranslation();
  const overlay = useOverlay();
  const section = useParams()['*'] ?? '';
  const body = () => (
    <SheetBody className="py-4 text-sm text-muted-foreground">{t('styleguide.drawer-body')}</SheetBody>
  );
  return (
    <div className="flex flex-col gap-4" data-testid="styleguide-page" data-section={section}>
      <PageHeader title={t('page.styleguide')} />
      <nav className="flex flex-wrap gap-1" aria-label={t('page.styleguide')}>
        {SECTIONS.map((s) => (
          <NavLink
            key={s}
            to={`/styleguide/${s}`}
            className={({ isActive }) =>
              cn(
                'rounded-md border px-2 py-0.5 font-mono text-xs',
                isActive && 'bg-primary text-primary-foreground',
              )
            }
          >
            {s}
          </NavLink>
        ))}
      </nav>
      <Card>
        <CardHeader>
          <CardTitle>{t('styleguide.buttons')}</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-2">
          <Button>{t('common.save')}</Button>
          <Button variant="secondary">{t('common.edit')}</Button>
          <Button variant="outline">{t('common.cancel')}</Button>
          <Button variant="destructive">{t('common.delete')}</Button>
          <Button variant="ghost">{t('common.back')}</Button>
          <Badge>{t('styleguide.badge')}</Badge>
          <Badge variant="warning">{t('drawer.offline')}</Badge>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t('styleguide.overlays')}</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-2">
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
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t('styleguide.form')}</CardTitle>
        </CardHeader>
        <CardContent>
          <DemoForm />
        </CardContent>
      </Card>
    </div>
  );
}
