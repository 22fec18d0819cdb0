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
import { notifySuccess } from '../../../lib/notify';
import { useCreateClient } from '../api/create-client';

const EMPTY = { name: '', city: '', customer_number: '', email: '', mainName: '', mainEmail: '' };

/**
 * Bringing a client on board (issue #27): its name and some base data, its modules, and its first main
 * user, who is invited by mail to choose a password. The rest of the base data is edited afterwards.
 */
export function CreateClientDialog() {
  const { t } = useTranslation();
  const create = useCreateClient();
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState(EMPTY);
  const [modules, setModules] = useState<ModuleName[]>([]);
  const set = (key: keyof typeof EMPTY) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));
  const optional = (value: string) => (value.trim() ? value.trim() : null);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    create.mutate(
      {
        name: values.name.trim(),
        city: optional(values.city),
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
      <DialogContent data-testid="client-create-dialog">
        <DialogHeader>
          <DialogTitle>{t('clients.create.title')}</DialogTitle>
          <DialogDescription>{t('clients.create.intro')}</DialogDescription>
        </DialogHeader>
        <form className="flex flex-col gap-3" onSubmit={submit} noValidate>
          {field('name', t('clients.create.name'))}
          {field('city', t('clients.create.city'))}
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
