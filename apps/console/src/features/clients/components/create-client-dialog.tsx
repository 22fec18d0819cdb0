import { MODULES, type ModuleName } from '@iot/domain';
import { PlusIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import { notifySuccess } from '../../../lib/notify';
import { useCountries } from '../../company/api/get-countries';
import { useCreateClient } from '../api/create-client';

const EMPTY = {
  name: '',
  street: '',
  street_number: '',
  zip: '',
  city: '',
  phone: '',
  customer_number: '',
  email: '',
  mainName: '',
  mainEmail: '',
};

/**
 * Bringing a client on board (issue #27): its name and address, its modules, and its first main user, who
 * is invited by mail to choose a password. State and district are chosen afterwards in the edit dialog.
 */
export function CreateClientDialog() {
  const { t } = useTranslation();
  const create = useCreateClient();
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState(EMPTY);
  const [modules, setModules] = useState<ModuleName[]>([]);
  const [countryId, setCountryId] = useState<number | null>(null);
  const countries = useCountries();
  const set = (key: keyof typeof EMPTY) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));
  const optional = (value: string) => (value.trim() ? value.trim() : null);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    create.mutate(
      {
        name: values.name.trim(),
        street: optional(values.street),
        street_number: optional(values.street_number),
        zip: optional(values.zip),
        city: optional(values.city),
        country_id: countryId,
        phone: optional(values.phone),
        customer_number: optional(values.customer_number),
        email: optional(values.email),
        modules,
        main_user: { email: values.mainEmail.trim(), name: values.mainName.trim() },
      },
      {
        onSuccess: () => {
          notifySuccess(t('clients.create.done', { email: values.mainEmail.trim() }));
          setValues(EMPTY);
          setModules([]);
          setCountryId(null);
          setOpen(false);
        },
      },
    );
  };
  const field = (key: keyof typeof EMPTY, label: string, type = 'text') => (
    <label htmlFor={`client-${key}`} className="flex flex-col gap-1 text-sm">
      {label}
      <Input
        id={`client-${key}`}
        type={type}
        value={values[key]}
        onChange={set(key)}
        data-testid={`client-${key}`}
      />
    </label>
  );

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button data-testid="client-create-open">
          <PlusIcon />
          {t('clients.create.open')}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90vh] overflow-y-auto" data-testid="client-create-dialog">
        <DialogHeader>
          <DialogTitle>{t('clients.create.title')}</DialogTitle>
          <DialogDescription>{t('clients.create.intro')}</DialogDescription>
        </DialogHeader>
        <form className="flex flex-col gap-3" onSubmit={submit} noValidate>
          {field('name', t('clients.create.name'))}
          <div className="grid grid-cols-[1fr_7rem] gap-3">
            {field('street', t('company.street'))}
            {field('street_number', t('company.street_number'))}
          </div>
          <div className="grid grid-cols-[7rem_1fr] gap-3">
            {field('zip', t('company.zip'))}
            {field('city', t('clients.create.city'))}
          </div>
          <label htmlFor="client-country" className="flex flex-col gap-1 text-sm">
            {t('company.country')}
            <NativeSelect
              id="client-country"
              value={countryId ?? ''}
              onChange={(e) => setCountryId(e.target.value ? Number(e.target.value) : null)}
              data-testid="client-country"
            >
              <option value="">{t('company.choose')}</option>
              {(countries.data ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </NativeSelect>
          </label>
          {field('phone', t('company.phone'), 'tel')}
          {field('customer_number', t('clients.create.customer-number'))}
          {field('email', t('clients.create.email'), 'email')}
          <fieldset className="flex flex-wrap gap-3 text-sm">
            <legend className="mb-1">{t('clients.create.modules')}</legend>
            {MODULES.map((module) => (
              <label key={module} className="flex items-center gap-1">
                <input
                  type="checkbox"
                  checked={modules.includes(module)}
                  onChange={() =>
                    setModules((m) => (m.includes(module) ? m.filter((x) => x !== module) : [...m, module]))
                  }
                  data-testid={`client-module-${module}`}
                />
                {t(`clients.module.${module}`)}
              </label>
            ))}
          </fieldset>
          {field('mainName', t('clients.create.main-name'))}
          {field('mainEmail', t('clients.create.main-email'), 'email')}
          <DialogFooter>
            <Button
              type="submit"
              disabled={
                !values.name.trim() || !values.mainEmail.trim() || !values.mainName.trim() || create.isPending
              }
              data-testid="client-create-submit"
            >
              {t('clients.create.submit')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
