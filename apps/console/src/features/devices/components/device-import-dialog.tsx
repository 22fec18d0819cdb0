import { useQueryClient } from '@tanstack/react-query';
import { UploadIcon } from 'lucide-react';
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
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { devicesQueryOptions } from '../../../lib/devices/get-devices';
import { notifySuccess } from '../../../lib/notify';
import { type DeviceImportAnswer, importDevicesCsv } from '../api/import-devices';

/** Import devices from CSV: the file is previewed (new, updated, invalid with reasons) before it is written. */
export function DeviceImportDialog() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [csv, setCsv] = useState<string | null>(null);
  const [preview, setPreview] = useState<DeviceImportAnswer | null>(null);
  const [failed, setFailed] = useState<number | undefined | null>(null);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<{ written: number; total: number } | null>(null);

  const choose = async (file: File | undefined) => {
    if (!file) return;
    const text = await file.text();
    setCsv(text);
    setBusy(true);
    const result = await importDevicesCsv(text, true);
    setBusy(false);
    setPreview(result.answer ?? null);
    setFailed(result.ok ? null : result.code);
  };
  const commit = async () => {
    if (csv === null) return;
    setBusy(true);
    const result = await importDevicesCsv(csv, false, setProgress);
    setBusy(false);
    setProgress(null);
    if (!result.ok) {
      setFailed(result.code);
      if (result.answer) setPreview(result.answer);
      return;
    }
    await queryClient.invalidateQueries({ queryKey: devicesQueryOptions().queryKey });
    notifySuccess(t('devices.import.done', result.answer.counts));
    setOpen(false);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          setCsv(null);
          setPreview(null);
          setFailed(null);
        }
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" data-testid="devices-import-csv">
          <UploadIcon />
          {t('devices.import.open')}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-3xl" data-testid="devices-import-dialog">
        <DialogHeader>
          <DialogTitle>{t('devices.import.title')}</DialogTitle>
          <DialogDescription>{t('devices.import.columns')}</DialogDescription>
        </DialogHeader>
        <input
          type="file"
          accept=".csv,text/csv"
          onChange={(e) => void choose(e.target.files?.[0])}
          data-testid="devices-import-file"
        />
        {failed !== null && (
          <p className="text-destructive text-sm" data-testid="devices-import-error">
            {t(`api.response-${failed ?? 50107}`)}
          </p>
        )}
        {progress && (
          <div className="flex flex-col gap-1" data-testid="devices-import-progress">
            <progress className="w-full" max={progress.total} value={progress.written} />
            <p className="text-sm text-muted-foreground">{t('devices.import.progress', progress)}</p>
          </div>
        )}
        {preview && (
          <>
            <p className="text-sm" data-testid="devices-import-counts">
              {t('devices.import.counts', preview.counts)}
            </p>
            <div className="max-h-80 overflow-auto">
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>{t('devices.import.line')}</TableHead>
                    <TableHead>{t('devices.column.name')}</TableHead>
                    <TableHead>{t('devices.import.status')}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {preview.rows.map((row) => (
                    <TableRow
                      key={row.line}
                      data-testid={`devices-import-row-${row.line}`}
                      data-status={row.status}
                    >
                      <TableCell>{row.line}</TableCell>
                      <TableCell>{row.name}</TableCell>
                      <TableCell className={row.status === 'invalid' ? 'text-destructive' : undefined}>
                        {t(`devices.import.status-${row.status}`)}
                        {row.reasons.length > 0 &&
                          `: ${row.reasons.map((r) => t(`devices.import.reason.${r}`)).join(', ')}`}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          </>
        )}
        <DialogFooter>
          <Button
            onClick={() => void commit()}
            disabled={busy || !preview || preview.counts.invalid > 0 || preview.rows.length === 0}
            data-testid="devices-import-commit"
          >
            {t('devices.import.commit')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
