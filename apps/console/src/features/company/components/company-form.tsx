import { DEFAULT_PHONE_COUNTRY, type FieldRules, FORM_RULES, rule } from '@iot/domain';
import { useMutation } from '@tanstack/react-query';
import { SaveIcon } from 'lucide-react';
import { useState } from 'react';
import { type Control, Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { LogoInput } from '../../../components/logo/logo-input';
import { Button } from '../../../components/ui/button';
import { FormErrorMarker, FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { SheetBody, SheetFooter } from '../../../components/ui/sheet';
import { useCurrentUser } from '../../../lib/auth';
import { notifySuccess } from '../../../lib/notify';
import { canEdit } from '../../../lib/roles';
import { useDomainForm } from '../../../lib/use-domain-form';
import type { CurrentCompany, NamedItem } from '../../../types/api';
import { useCountries } from '../api/get-countries';
import { useDistricts } from '../api/get-districts';
import { useStates } from '../api/get-states';
import { type CompanyInput, updateCompany } from '../api/update-company';

type Values = CompanyInput;

function rulesFor(countryCode: string | null): FieldRules {
  return {
    ...FORM_RULES.company,
    name2: [rule.maxLength(200)],
    street: ['required', rule.maxLength(200)],
    street_number: [rule.maxLength(20)],
    zip: ['required', rule.maxLength(20)],
    city: ['required', rule.maxLength(200)],
    country_id: ['required'],
    state_id: [],
    district_id: [],
    // The phone is validated for the selected country (DE when none is chosen).
    phone: [rule.phone(countryCode ?? DEFAULT_PHONE_COUNTRY)],
  };
}

function IdSelect({
  control,
  name,
  items,
  placeholder,
  disabled,
  testId,
  onPicked,
}: {
  control: Control<Values>;
  name: 'country_id' | 'state_id' | 'district_id';
  items: NamedItem[];
  placeholder: string;
  disabled?: boolean;
  testId: string;
  onPicked?: () => void;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Select
          value={field.value === null ? '' : String(field.value)}
          disabled={disabled ?? false}
          onValueChange={(v) => {
            field.onChange(v === '' ? null : Number(v));
            onPicked?.();
          }}
        >
          <SelectTrigger id={name} data-testid={testId}>
            <SelectValue placeholder={placeholder} />
          </SelectTrigger>
          <SelectContent>
            {items.map((item) => (
              <SelectItem key={item.id} value={String(item.id)} data-testid={`${testId}-option-${item.id}`}>
                {item.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      )}
    />
  );
}

/** The retention inputs as typed: '' keeps the data for ever. */
interface RetentionDraft {
  data: string;
  rollups: string;
}

function retentionDraftOf(company: CurrentCompany): RetentionDraft {
  const text = (days: number | null | undefined) => (days == null ? '' : String(days));
  return { data: text(company.data_retention_days), rollups: text(company.rollup_retention_days) };
}

/** The retention fields the user changed, as the API takes them (unchanged ones are left out). */
function retentionChanges(company: CurrentCompany, draft: RetentionDraft) {
  const before = retentionDraftOf(company);
  const days = (text: string) => (text.trim() === '' ? null : Number(text));
  return {
    ...(draft.data === before.data ? {} : { data_retention_days: days(draft.data) }),
    ...(draft.rollups === before.rollups ? {} : { rollup_retention_days: days(draft.rollups) }),
  };
}

/** Device data retention (issue #29): raw data and chart history in days, under the provider's cap. */
function RetentionFields({
  company,
  draft,
  onChange,
}: {
  company: CurrentCompany;
  draft: RetentionDraft;
  onChange: (draft: RetentionDraft) => void;
}) {
  const { t } = useTranslation();
  const cap = company.data_retention_cap_days ?? null;
  const input = (key: keyof RetentionDraft, label: string) => (
    <label htmlFor={`retention-${key}`} className="flex flex-col gap-1 text-sm">
      {label}
      <Input
        id={`retention-${key}`}
        type="number"
        min={31}
        max={key === 'data' && cap !== null ? cap : undefined}
        placeholder={key === 'data' && cap !== null ? String(cap) : t('retention.forever')}
        value={draft[key]}
        onChange={(e) => onChange({ ...draft, [key]: e.target.value })}
        data-testid={`company-retention-${key}`}
      />
    </label>
  );
  return (
    <fieldset className="col-span-2 grid grid-cols-2 gap-4" data-testid="company-retention">
      <legend className="mb-1 text-sm font-semibold">{t('retention.title')}</legend>
      {input('data', t('retention.data'))}
      {input('rollups', t('retention.rollups'))}
      <p className="col-span-2 text-xs text-muted-foreground">
        {t('retention.hint')}
        {cap !== null && ` ${t('retention.cap', { days: cap })}`}
      </p>
    </fieldset>
  );
}

/**
 * Company base data: address with dependent country, state and district selects (countries AT, CH, DE, FR).
 * The acting company's by default, with its logo and data retention; the super admin's client dialog
 * passes its own `save` and `ownSettings={false}`, and shows logo, customer number and retention cap itself.
 */
export function CompanyForm({
  company,
  onDone,
  save = updateCompany,
  ownSettings = true,
}: {
  company: CurrentCompany;
  onDone: () => void;
  save?: (input: CompanyInput) => Promise<unknown>;
  ownSettings?: boolean;
}) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const countries = useCountries();
  const update = useMutation({ mutationFn: save });
  const countryCode = (countryId: unknown) =>
    (countries.data ?? []).find((c) => c.id === countryId)?.code?.toUpperCase() ?? null;
  const { form, summary } = useDomainForm<Values>(
    {
      name: company.name ?? '',
      name2: company.name2 ?? '',
      street: company.street ?? '',
      street_number: company.street_number ?? '',
      zip: company.zip ?? '',
      city: company.city ?? '',
      country_id: company.country_id ?? null,
      state_id: company.state_id ?? null,
      district_id: company.district_id ?? null,
      phone: company.phone ?? '',
      email: company.email ?? '',
    },
    (values) => rulesFor(countryCode(values.country_id)),
  );
  const countryId = form.watch('country_id');
  const stateId = form.watch('state_id');
  const states = useStates(countryId);
  const districts = useDistricts(stateId);
  const [logo, setLogo] = useState<string | null>(company.logo ?? null);
  const [retention, setRetention] = useState<RetentionDraft>(() => retentionDraftOf(company));
  const onSubmit = form.handleSubmit((values) =>
    update.mutate(
      {
        ...values,
        ...(logo === (company.logo ?? null) ? {} : { logo }),
        ...retentionChanges(company, retention),
      },
      {
        onSuccess: () => {
          notifySuccess(t('company.saved'));
          onDone();
        },
      },
    ),
  );
  const text = (
    name: 'name' | 'name2' | 'street' | 'street_number' | 'zip' | 'city' | 'phone' | 'email',
    required = false,
  ) => (
    <FormField
      name={name}
      label={t(`company.${name}`)}
      required={required}
      summary={summary}
      testId={`company-${name}`}
    >
      <Input id={name} data-testid={`company-${name}`} {...form.register(name)} />
    </FormField>
  );
  return (
    <form
      onSubmit={onSubmit}
      className="flex flex-1 flex-col overflow-hidden"
      noValidate
      data-testid="company-form"
    >
      <SheetBody className="grid grid-cols-2 gap-4 py-2">
        <div className="col-span-2">{text('name', true)}</div>
        <div className="col-span-2">{text('name2')}</div>
        {text('street', true)}
        {text('street_number')}
        {text('zip', true)}
        {text('city', true)}
        <FormField
          name="country_id"
          label={t('company.country')}
          required
          summary={summary}
          className="col-span-2"
        >
          <IdSelect
            control={form.control}
            name="country_id"
            items={countries.data ?? []}
            placeholder={t('company.choose')}
            testId="company-country"
            onPicked={() => {
              form.setValue('state_id', null);
              form.setValue('district_id', null);
            }}
          />
        </FormField>
        <FormField name="state_id" label={t('company.state')} summary={summary}>
          <IdSelect
            control={form.control}
            name="state_id"
            items={states.data ?? []}
            placeholder={t('company.choose')}
            disabled={countryId === null}
            testId="company-state"
            onPicked={() => form.setValue('district_id', null)}
          />
        </FormField>
        <FormField name="district_id" label={t('company.district')} summary={summary}>
          <IdSelect
            control={form.control}
            name="district_id"
            items={districts.data ?? []}
            placeholder={t('company.choose')}
            disabled={stateId === null}
            testId="company-district"
          />
        </FormField>
        {text('phone')}
        {text('email')}
        {ownSettings && canEdit(user?.roles) && (
          <div className="col-span-2">
            <LogoInput value={logo} onChange={setLogo} testId="company-logo" />
          </div>
        )}
        {ownSettings && <RetentionFields company={company} draft={retention} onChange={setRetention} />}
      </SheetBody>
      <SheetFooter className="items-center">
        <FormErrorMarker summary={summary} className="mr-auto" />
        <Button variant="outline" onClick={onDone}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" disabled={!summary.canSubmit || update.isPending} data-testid="company-submit">
          <SaveIcon />
          {t('common.save')}
        </Button>
      </SheetFooter>
    </form>
  );
}
