import type { CreateVirtualDeviceRequest } from '@iot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PlusIcon, SigmaIcon, Trash2Icon } from 'lucide-react';
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
import { Label } from '../../../components/ui/label';
import { api } from '../../../lib/api-client';
import { devicesQueryOptions } from '../../../lib/devices/get-devices';
import { notifySuccess } from '../../../lib/notify';
import type { Device } from '../../../types/device';

/**
 * "Add virtual device" (spec section 2, ROLE_ADMIN only): a name and fields, each a formula over other
 * devices' fields written d<device id>.<field>; the rules worker computes them when an input reports.
 */
export function VirtualDeviceDialog({ devices }: { devices: readonly Device[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [fields, setFields] = useState([{ key: '', formula: '' }]);
  const create = useMutation({
    mutationFn: (body: CreateVirtualDeviceRequest) => api('/core/devices/virtual', { method: 'POST', body }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: devicesQueryOptions().queryKey });
      notifySuccess(t('devices.virtual.created'));
      setOpen(false);
      setName('');
      setFields([{ key: '', formula: '' }]);
    },
  });
  const example = devices.slice(0, 2);
  const set = (index: number, part: 'key' | 'formula', value: string) =>
    setFields(fields.map((f, i) => (i === index ? { ...f, [part]: value } : f)));

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" data-testid="devices-add-virtual">
          <SigmaIcon />
          {t('devices.virtual.add')}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-2xl" data-testid="virtual-device-dialog">
        <DialogHeader>
          <DialogTitle>{t('devices.virtual.add')}</DialogTitle>
          <DialogDescription>
            {t('devices.virtual.syntax', {
              example:
                example.length === 2
                  ? `(d${example[0]!.id}.temperature + d${example[1]!.id}.temperature) / 2`
                  : '(d12.temperature + d13.temperature) / 2',
            })}
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-1">
          <Label htmlFor="virtual-name">{t('devices.column.name')}</Label>
          <Input
            id="virtual-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            data-testid="virtual-name"
          />
        </div>
        {fields.map((field, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
          <div key={index} className="grid grid-cols-[10rem_1fr_auto] items-end gap-2">
            <div className="flex flex-col gap-1">
              <Label htmlFor={`virtual-key-${index}`}>{t('devices.virtual.key')}</Label>
              <Input
                id={`virtual-key-${index}`}
                value={field.key}
                onChange={(e) => set(index, 'key', e.target.value)}
                data-testid={`virtual-key-${index}`}
              />
            </div>
            <div className="flex flex-col gap-1">
              <Label htmlFor={`virtual-formula-${index}`}>{t('devices.virtual.formula')}</Label>
              <Input
                id={`virtual-formula-${index}`}
                className="font-mono"
                value={field.formula}
                onChange={(e) => set(index, 'formula', e.target.value)}
                data-testid={`virtual-formula-${index}`}
              />
            </div>
            <Button
              size="icon"
              variant="ghost"
              aria-label={t('common.delete')}
              disabled={fields.length === 1}
              onClick={() => setFields(fields.filter((_, i) => i !== index))}
            >
              <Trash2Icon />
            </Button>
          </div>
        ))}
        <Button
          variant="ghost"
          className="self-start"
          onClick={() => setFields([...fields, { key: '', formula: '' }])}
        >
          <PlusIcon />
          {t('devices.virtual.add-field')}
        </Button>
        <DialogFooter>
          <Button
            disabled={create.isPending}
            onClick={() => create.mutate({ name, fields })}
            data-testid="virtual-create"
          >
            {t('devices.virtual.create')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
