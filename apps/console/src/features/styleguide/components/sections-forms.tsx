import { type FieldRules, rule } from '@iot/domain';
import { Loader2Icon, PlusIcon, SaveIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LogoInput } from '../../../components/logo/logo-input';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { CheckboxList } from '../../../components/ui/checkbox-list';
import { FormErrorMarker, FormField } from '../../../components/ui/form-field';
import { Input, Textarea } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { ToggleGroup, ToggleGroupItem } from '../../../components/ui/toggle-group';
import { useDomainForm } from '../../../lib/use-domain-form';
import { Demo, State } from './demo';

const DEMO_RULES: FieldRules = {
  email: ['required', 'email'],
  count: ['required', 'integer', rule.range(1, 5)],
};

/** The project's form: domain rules, the error above each field, the error marker beside save. */
function DemoForm() {
  const { t } = useTranslation();
  const { form, summary } = useDomainForm<{ email: string; count: string }>(
    { email: '', count: '' },
    DEMO_RULES,
  );
  return (
    <form
      className="grid w-full gap-4 sm:grid-cols-2"
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

export function FormLayoutSection() {
  const { t } = useTranslation();
  return (
    <>
      <Demo title={t('sg.formlayout.validated')} description={t('sg.formlayout.validated-text')}>
        <DemoForm />
      </Demo>
      <Demo title={t('sg.formlayout.vertical')}>
        <div className="flex w-full max-w-sm flex-col gap-3">
          <Label htmlFor="sg-v-name">{t('sg.sample.name')}</Label>
          <Input id="sg-v-name" placeholder={t('sg.sample.name-placeholder')} />
          <Label htmlFor="sg-v-city">{t('sg.sample.city')}</Label>
          <Input id="sg-v-city" />
        </div>
      </Demo>
      <Demo title={t('sg.formlayout.horizontal')}>
        <div className="grid w-full max-w-lg grid-cols-[8rem_1fr] items-center gap-3">
          <Label htmlFor="sg-h-name">{t('sg.sample.name')}</Label>
          <Input id="sg-h-name" />
          <Label htmlFor="sg-h-city">{t('sg.sample.city')}</Label>
          <Input id="sg-h-city" />
        </div>
      </Demo>
      <Demo title={t('sg.formlayout.inline')}>
        <div className="flex flex-wrap items-end gap-2">
          <Input className="w-48" placeholder={t('sg.sample.name')} aria-label={t('sg.sample.name')} />
          <Input className="w-48" placeholder={t('sg.sample.city')} aria-label={t('sg.sample.city')} />
          <Button>{t('common.save')}</Button>
        </div>
      </Demo>
    </>
  );
}

function SelectDemo({ disabled }: { disabled?: boolean }) {
  const { t } = useTranslation();
  return (
    <Select defaultValue="de" disabled={disabled ?? false}>
      <SelectTrigger className="w-48" aria-label={t('sg.sample.country')}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value="at">AT</SelectItem>
        <SelectItem value="ch">CH</SelectItem>
        <SelectItem value="de">DE</SelectItem>
        <SelectItem value="fr">FR</SelectItem>
      </SelectContent>
    </Select>
  );
}

export function InputSection() {
  const { t } = useTranslation();
  const [checked, setChecked] = useState<string[]>(['1']);
  const label = t('sg.sample.name');
  return (
    <>
      <Demo title={t('sg.input.text')}>
        <State name="default">
          <Input className="w-48" aria-label={label} />
        </State>
        <State name="placeholder">
          <Input className="w-48" aria-label={label} placeholder={t('sg.sample.name-placeholder')} />
        </State>
        <State name="filled">
          <Input className="w-48" aria-label={label} defaultValue="Gateway Nord" />
        </State>
        <State name="disabled">
          <Input className="w-48" aria-label={label} disabled defaultValue="Gateway Nord" />
        </State>
        <State name="readonly">
          <Input className="w-48" aria-label={label} readOnly defaultValue="eui-0042" />
        </State>
        <State name="invalid">
          <Input className="w-48" aria-label={label} aria-invalid defaultValue="@" />
        </State>
        <State name="number">
          <Input className="w-32" aria-label={label} type="number" defaultValue={21.5} step={0.1} />
        </State>
        <State name="password">
          <Input className="w-48" aria-label={label} type="password" defaultValue="secret" />
        </State>
      </Demo>
      <Demo title={t('sg.input.textarea')}>
        <Textarea className="w-80" aria-label={label} defaultValue={t('sg.sample.paragraph')} />
        <Textarea className="w-80" aria-label={label} disabled />
      </Demo>
      <Demo title={t('sg.input.select')}>
        <State name="select">
          <SelectDemo />
        </State>
        <State name="select disabled">
          <SelectDemo disabled />
        </State>
        <State name="native select">
          <NativeSelect aria-label={t('sg.sample.country')} defaultValue="at">
            <option value="at">AT</option>
            <option value="de">DE</option>
            <option value="x" disabled>
              🔒 {t('sg.sample.locked-option')}
            </option>
          </NativeSelect>
        </State>
      </Demo>
      <Demo title={t('sg.input.choice')}>
        <State name="checkbox">
          <Label className="flex items-center gap-2">
            <Checkbox defaultChecked />
            {t('sg.sample.option', { n: 1 })}
          </Label>
        </State>
        <State name="checkbox unchecked">
          <Label className="flex items-center gap-2">
            <Checkbox />
            {t('sg.sample.option', { n: 2 })}
          </Label>
        </State>
        <State name="checkbox disabled">
          <Label className="flex items-center gap-2">
            <Checkbox disabled />
            {t('sg.sample.option', { n: 3 })}
          </Label>
        </State>
        <State name="toggle group">
          <ToggleGroup type="single" defaultValue="24h" aria-label={t('sg.sample.period')}>
            <ToggleGroupItem value="1h">1 h</ToggleGroupItem>
            <ToggleGroupItem value="24h">24 h</ToggleGroupItem>
            <ToggleGroupItem value="7d">7 d</ToggleGroupItem>
          </ToggleGroup>
        </State>
        <State name="checkbox list">
          <div className="w-64">
            <CheckboxList
              options={[1, 2, 3, 4].map((n) => ({ value: String(n), label: t('sg.sample.option', { n }) }))}
              value={checked}
              onChange={setChecked}
              testId="styleguide-checkbox-list"
            />
          </div>
        </State>
      </Demo>
    </>
  );
}

export function FloatLabelSection() {
  const { t } = useTranslation();
  return (
    <Demo title={t('sg.floatlabel.title')} description={t('sg.floatlabel.text')}>
      {(['empty', 'filled'] as const).map((state) => (
        <State key={state} name={state}>
          <div className="relative w-56">
            <Input
              id={`sg-float-${state}`}
              placeholder=" "
              defaultValue={state === 'filled' ? 'Freiburg' : ''}
              className="peer h-11 pt-4"
            />
            <Label
              htmlFor={`sg-float-${state}`}
              className="pointer-events-none absolute top-1 left-3 text-[10px] text-muted-foreground transition-all peer-placeholder-shown:top-3.5 peer-placeholder-shown:text-sm peer-focus:top-1 peer-focus:text-[10px]"
            >
              {t('sg.sample.city')}
            </Label>
          </div>
        </State>
      ))}
    </Demo>
  );
}

const VARIANTS = ['default', 'secondary', 'outline', 'destructive', 'ghost', 'link'] as const;
const SIZES = ['sm', 'default', 'lg'] as const;

export function ButtonSection() {
  const { t } = useTranslation();
  return (
    <>
      <Demo title={t('sg.button.variants')}>
        {VARIANTS.map((variant) => (
          <State key={variant} name={variant}>
            <Button variant={variant}>{t('common.save')}</Button>
          </State>
        ))}
      </Demo>
      <Demo title={t('sg.button.sizes')}>
        {SIZES.map((size) => (
          <State key={size} name={size}>
            <Button size={size}>{t('common.save')}</Button>
          </State>
        ))}
        <State name="icon">
          <Button size="icon" aria-label={t('common.delete')}>
            <Trash2Icon />
          </Button>
        </State>
      </Demo>
      <Demo title={t('sg.button.states')}>
        <State name="with icon">
          <Button>
            <PlusIcon />
            {t('sg.sample.add')}
          </Button>
        </State>
        <State name="disabled">
          <Button disabled>{t('common.save')}</Button>
        </State>
        <State name="busy">
          <Button disabled>
            <Loader2Icon className="animate-spin" />
            {t('common.loading')}
          </Button>
        </State>
        <State name="outline disabled">
          <Button variant="outline" disabled>
            <SaveIcon />
            {t('common.save')}
          </Button>
        </State>
      </Demo>
    </>
  );
}

export function FileSection() {
  const { t } = useTranslation();
  const [logo, setLogo] = useState<string | null>(null);
  return (
    <>
      <Demo title={t('sg.file.logo')} description={t('logo.hint')}>
        <LogoInput value={logo} onChange={setLogo} testId="styleguide-logo" />
      </Demo>
      <Demo title={t('sg.file.plain')}>
        <Input type="file" className="w-72" aria-label={t('sg.file.plain')} />
        <Input type="file" className="w-72" aria-label={t('sg.file.plain')} disabled />
      </Demo>
    </>
  );
}
