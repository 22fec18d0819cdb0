import { formatArea } from '@iot/domain';
import { useQueryClient } from '@tanstack/react-query';
import { PencilIcon, PlusIcon, Trash2Icon, UploadIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { notifySuccess } from '../../../lib/notify';
import { saveParcel, useDeleteParcel, useParcels, useSaveParcel } from '../api/farming-api';
import { InlineEditActions } from './inline-edit-actions';
import { compareImport, type ImportRow, parseImport } from './parcel-import';

interface ParcelEdit {
  id: number;
  parcel_id: string;
  registration_number: string;
  size_m2: string;
  valid_from: string;
  valid_to: string;
}

/** "Parcel Management": the company's parcels, add and edit one, import many with a preview. */
export function ParcelsPanel({ editable }: { editable: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language.startsWith('de') ? 'de' : 'en';
  const parcels = useParcels();
  const save = useSaveParcel();
  const remove = useDeleteParcel();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState({ parcel_id: '', registration_number: '', size_m2: '' });
  const [preview, setPreview] = useState<ImportRow[] | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [editing, setEditing] = useState<ParcelEdit | null>(null);
  const saveEdit = () => {
    if (!editing) return;
    save.mutate(
      {
        id: editing.id,
        parcel_id: editing.parcel_id,
        registration_number: editing.registration_number,
        size_m2: Number(editing.size_m2.replace(',', '.')),
        valid_from: editing.valid_from || null,
        valid_to: editing.valid_to || null,
      },
      { onSuccess: () => setEditing(null) },
    );
  };

  const add = (e: React.FormEvent) => {
    e.preventDefault();
    save.mutate(
      {
        id: null,
        parcel_id: draft.parcel_id,
        registration_number: draft.registration_number,
        size_m2: Number(draft.size_m2.replace(',', '.')),
      },
      { onSuccess: () => setDraft({ parcel_id: '', registration_number: '', size_m2: '' }) },
    );
  };
  const readFile = async (file: File) => {
    const text = await file.text();
    setPreview(compareImport(parseImport(file.name, text), parcels.data ?? []));
  };
  const runImport = async () => {
    const rows = (preview ?? []).filter((r) => r.state === 'new' || r.state === 'changed');
    setProgress(0);
    for (const [i, row] of rows.entries()) {
      await saveParcel({
        id: row.state === 'changed' ? row.existingId : null,
        parcel_id: row.parcel_id,
        registration_number: row.registration_number,
        size_m2: row.size_m2,
        ...(row.boundary ? { boundary: row.boundary } : {}),
      });
      setProgress(Math.round(((i + 1) / rows.length) * 100));
    }
    await queryClient.invalidateQueries({ queryKey: ['farming'] });
    setPreview(null);
    setProgress(null);
    notifySuccess(t('farming.import-done', { count: rows.length }));
  };

  return (
    <Card className="flex flex-col gap-3 p-4" data-testid="parcels-panel">
      <h2 className="text-lg font-semibold">{t('farming.parcel-management')}</h2>
      {editable && (
        <form onSubmit={add} className="flex flex-wrap items-end gap-2">
          <Input
            placeholder={t('farming.parcel-id')}
            value={draft.parcel_id}
            onChange={(e) => setDraft({ ...draft, parcel_id: e.target.value })}
            className="w-32"
            data-testid="parcel-new-id"
          />
          <Input
            placeholder={t('farming.registration-number')}
            value={draft.registration_number}
            onChange={(e) => setDraft({ ...draft, registration_number: e.target.value })}
            className="w-56"
            data-testid="parcel-new-flik"
          />
          <Input
            placeholder={t('farming.size-m2')}
            value={draft.size_m2}
            onChange={(e) => setDraft({ ...draft, size_m2: e.target.value })}
            className="w-32"
            inputMode="decimal"
            data-testid="parcel-new-size"
          />
          <Button type="submit" disabled={!draft.parcel_id || !draft.size_m2} data-testid="parcel-add">
            <PlusIcon />
            {t('farming.add-parcel')}
          </Button>
          <label className="ml-auto inline-flex cursor-pointer items-center gap-2 text-sm">
            <UploadIcon className="size-4" />
            {t('farming.import')}
            <input
              type="file"
              accept=".csv,.geojson,.json"
              className="hidden"
              data-testid="parcel-import-file"
              onChange={(e) => e.target.files?.[0] && void readFile(e.target.files[0])}
            />
          </label>
        </form>
      )}
      {preview && (
        <div className="flex flex-col gap-2 rounded border p-2" data-testid="parcel-import-preview">
          <Table>
            <TableBody>
              {preview.map((row, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a preview's rows never reorder, and a file may repeat a row.
                <TableRow key={`${row.parcel_id}-${i}`} data-state={row.state}>
                  <TableCell>{t(`farming.import-${row.state}`)}</TableCell>
                  <TableCell>{row.parcel_id}</TableCell>
                  <TableCell>{row.registration_number}</TableCell>
                  <TableCell>{formatArea(row.size_m2, lang)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <div className="flex gap-2">
            <Button
              onClick={() => void runImport()}
              disabled={progress !== null}
              data-testid="parcel-import-run"
            >
              {progress === null ? t('farming.import-run') : `${progress} %`}
            </Button>
            <Button variant="outline" onClick={() => setPreview(null)}>
              {t('common.cancel')}
            </Button>
          </div>
        </div>
      )}
      <Table data-testid="parcels-table">
        <TableHeader>
          <TableRow>
            <TableHead>{t('farming.parcel-id')}</TableHead>
            <TableHead>{t('farming.registration-number')}</TableHead>
            <TableHead className="text-right">{t('farming.size')}</TableHead>
            <TableHead>{t('farming.field')}</TableHead>
            <TableHead className="w-24" />
          </TableRow>
        </TableHeader>
        <TableBody>
          {(parcels.data ?? []).map((p) =>
            editing?.id === p.id ? (
              <TableRow key={p.id} data-testid={`parcel-row-${p.id}`}>
                <TableCell>
                  <Input
                    value={editing.parcel_id}
                    onChange={(e) => setEditing({ ...editing, parcel_id: e.target.value })}
                    aria-label={t('farming.parcel-id')}
                    data-testid="parcel-edit-id"
                  />
                </TableCell>
                <TableCell>
                  <Input
                    value={editing.registration_number}
                    onChange={(e) => setEditing({ ...editing, registration_number: e.target.value })}
                    aria-label={t('farming.registration-number')}
                    data-testid="parcel-edit-flik"
                  />
                </TableCell>
                <TableCell>
                  <Input
                    value={editing.size_m2}
                    inputMode="decimal"
                    onChange={(e) => setEditing({ ...editing, size_m2: e.target.value })}
                    aria-label={t('farming.size-m2')}
                    data-testid="parcel-edit-size"
                  />
                </TableCell>
                <TableCell className="flex gap-1">
                  <Input
                    type="date"
                    value={editing.valid_from}
                    onChange={(e) => setEditing({ ...editing, valid_from: e.target.value })}
                    aria-label={t('farming.valid-from')}
                  />
                  <Input
                    type="date"
                    value={editing.valid_to}
                    onChange={(e) => setEditing({ ...editing, valid_to: e.target.value })}
                    aria-label={t('farming.valid-to')}
                  />
                </TableCell>
                <InlineEditActions
                  canSave={Boolean(editing.parcel_id.trim() && editing.size_m2.trim())}
                  onSave={saveEdit}
                  onCancel={() => setEditing(null)}
                  saveTestId="parcel-edit-save"
                />
              </TableRow>
            ) : (
              <TableRow key={p.id} data-testid={`parcel-row-${p.id}`}>
                <TableCell>{p.parcel_id}</TableCell>
                <TableCell className="font-mono">{p.registration_number}</TableCell>
                <TableCell className="text-right" data-testid={`parcel-size-${p.id}`}>
                  {formatArea(p.size_m2, lang)}
                </TableCell>
                <TableCell>{p.field?.name ?? '–'}</TableCell>
                <TableCell className="flex gap-1">
                  {editable && (
                    <>
                      <Button
                        size="icon"
                        variant="ghost"
                        aria-label={t('common.edit')}
                        onClick={() =>
                          setEditing({
                            id: p.id,
                            parcel_id: p.parcel_id,
                            registration_number: p.registration_number,
                            size_m2: String(p.size_m2),
                            valid_from: p.valid_from ?? '',
                            valid_to: p.valid_to ?? '',
                          })
                        }
                        data-testid={`parcel-edit-${p.id}`}
                      >
                        <PencilIcon />
                      </Button>
                      <Button
                        size="icon"
                        variant="ghost"
                        aria-label={t('common.delete')}
                        onClick={() => remove.mutate(p.id)}
                      >
                        <Trash2Icon />
                      </Button>
                    </>
                  )}
                </TableCell>
              </TableRow>
            ),
          )}
        </TableBody>
      </Table>
    </Card>
  );
}
