import { TASK_TYPES } from '@iot/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { CheckboxList } from '../../../components/ui/checkbox-list';
import { Input, Textarea } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { formatDateTime } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { type FarmingTask, useCompanyUsers, useFields, useSaveTask, useTask } from '../api/farming-api';

const STATUSES = ['planned', 'in_progress', 'done', 'abandoned'] as const;

/** A datetime-local input's value for an ISO time, in the browser's zone. */
function localInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function TaskForm({ task, onDone }: { task: FarmingTask; onDone: () => void }) {
  const { t } = useTranslation();
  const fields = useFields();
  const users = useCompanyUsers();
  const save = useSaveTask();
  const [draft, setDraft] = useState({
    title: task.title,
    type: task.type,
    status: task.status,
    abandon_reason: task.abandon_reason ?? '',
    due: localInput(task.due_at),
    assignee: task.assignee_user_id === null ? '' : String(task.assignee_user_id),
    field_ids: task.field_ids.map(String),
    notes: task.notes ?? '',
  });
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    save.mutate(
      {
        id: task.id,
        title: draft.title,
        type: draft.type,
        status: draft.status,
        ...(draft.status === 'abandoned' ? { abandon_reason: draft.abandon_reason } : {}),
        // The input shows minutes: an untouched due date is not sent, or its seconds would count as a change.
        ...(draft.due === localInput(task.due_at)
          ? {}
          : { due_at: draft.due ? new Date(draft.due).toISOString() : null }),
        assignee_user_id: draft.assignee ? Number(draft.assignee) : null,
        field_ids: draft.field_ids.map(Number),
        notes: draft.notes.trim() === '' ? null : draft.notes,
      },
      {
        onSuccess: () => {
          notifySuccess(t('farming.task-saved'));
          onDone();
        },
      },
    );
  };
  const missingReason = draft.status === 'abandoned' && !draft.abandon_reason.trim();
  return (
    <form onSubmit={submit} className="flex flex-col gap-3" data-testid="task-edit-form">
      <div className="flex flex-col gap-1">
        <Label htmlFor="task-edit-title">{t('farming.task-title')}</Label>
        <Input
          id="task-edit-title"
          value={draft.title}
          onChange={(e) => setDraft({ ...draft, title: e.target.value })}
          data-testid="task-edit-title"
        />
      </div>
      <div className="grid grid-cols-2 gap-2">
        <div className="flex flex-col gap-1">
          <Label htmlFor="task-edit-type">{t('farming.task-type')}</Label>
          <NativeSelect
            id="task-edit-type"
            value={draft.type}
            onChange={(e) => setDraft({ ...draft, type: e.target.value })}
          >
            {TASK_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`farming.task-type-${type}`)}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="task-edit-status">{t('farming.status')}</Label>
          <NativeSelect
            id="task-edit-status"
            value={draft.status}
            onChange={(e) => setDraft({ ...draft, status: e.target.value as FarmingTask['status'] })}
            data-testid="task-edit-status"
          >
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`farming.status-${s}`)}
              </option>
            ))}
          </NativeSelect>
        </div>
      </div>
      {draft.status === 'abandoned' && (
        <div className="flex flex-col gap-1">
          <Label htmlFor="task-edit-reason">{t('farming.abandon-reason')}</Label>
          <Input
            id="task-edit-reason"
            value={draft.abandon_reason}
            onChange={(e) => setDraft({ ...draft, abandon_reason: e.target.value })}
            data-testid="task-edit-reason"
          />
        </div>
      )}
      <div className="grid grid-cols-2 gap-2">
        <div className="flex flex-col gap-1">
          <Label htmlFor="task-edit-due">{t('farming.due')}</Label>
          <Input
            id="task-edit-due"
            type="datetime-local"
            value={draft.due}
            onChange={(e) => setDraft({ ...draft, due: e.target.value })}
          />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="task-edit-assignee">{t('farming.assignee')}</Label>
          <NativeSelect
            id="task-edit-assignee"
            value={draft.assignee}
            onChange={(e) => setDraft({ ...draft, assignee: e.target.value })}
            data-testid="task-edit-assignee"
          >
            <option value="">{t('farming.nobody')}</option>
            {(users.data ?? []).map((u) => (
              <option key={u.id} value={u.id}>
                {u.name || u.email}
              </option>
            ))}
          </NativeSelect>
        </div>
      </div>
      <div className="flex flex-col gap-1">
        <Label>{t('farming.fields')}</Label>
        <CheckboxList
          options={(fields.data ?? []).map((f) => ({ value: String(f.id), label: f.name }))}
          value={draft.field_ids}
          onChange={(field_ids) => setDraft({ ...draft, field_ids })}
          testId="task-edit-fields"
        />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="task-edit-notes">{t('farming.notes')}</Label>
        <Textarea
          id="task-edit-notes"
          value={draft.notes}
          onChange={(e) => setDraft({ ...draft, notes: e.target.value })}
        />
      </div>
      <Button
        type="submit"
        disabled={!draft.title.trim() || missingReason || save.isPending}
        data-testid="task-edit-save"
      >
        {t('common.save')}
      </Button>
    </form>
  );
}

/** One history entry as a line: who, when, what changed (values of fields and users by name). */
function HistoryEntry({ entry }: { entry: NonNullable<FarmingTask['history']>[number] }) {
  const { t, i18n } = useTranslation();
  const fields = useFields();
  const users = useCompanyUsers();
  const show = (key: string, value: unknown): string => {
    if (value === null || value === undefined || value === '') return '–';
    if (key === 'status') return t(`farming.status-${value as 'planned'}`);
    if (key === 'type') return t(`farming.task-type-${value as 'custom'}`);
    if (key === 'due_at') return formatDateTime(String(value), i18n.language);
    if (key === 'assignee_user_id') {
      const u = users.data?.find((x) => x.id === value);
      return u ? u.name || u.email : `#${value}`;
    }
    if (key === 'field_ids' && Array.isArray(value))
      return value.map((id) => fields.data?.find((f) => f.id === id)?.name ?? `#${id}`).join(', ') || '–';
    return String(value);
  };
  const changes = Object.entries(entry.changes).flatMap(([key, change]) => {
    if (entry.kind === 'created' || typeof change !== 'object' || change === null || !('to' in change))
      return [];
    const { from, to } = change as { from: unknown; to: unknown };
    return [
      `${t(`farming.history-field-${key}` as 'farming.status', { defaultValue: key })}: ${show(key, from)} → ${show(key, to)}`,
    ];
  });
  return (
    <li className="border-b py-1 text-sm last:border-b-0">
      <div className="text-xs text-muted-foreground">
        {formatDateTime(entry.at, i18n.language)} · {entry.user_name ?? t('farming.history-system')}
      </div>
      <div>
        {t(`farming.history-${entry.kind}` as 'farming.history-edited', { defaultValue: entry.kind })}
      </div>
      {changes.length > 0 && (
        <ul className="text-xs">
          {changes.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </li>
  );
}

/** The task drawer: edit everything of a task (assignee and fields included) and read its history. */
export function TaskDrawer({ taskId, onDone }: { taskId: number; onDone: () => void }) {
  const { t } = useTranslation();
  const task = useTask(taskId);
  if (!task.data) return null;
  return (
    <div className="flex flex-col gap-4 p-4" data-testid="task-drawer-body">
      <TaskForm task={task.data} onDone={onDone} />
      <section>
        <h3 className="font-semibold">{t('farming.history')}</h3>
        <ul data-testid="task-history">
          {[...(task.data.history ?? [])].reverse().map((entry, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: history entries are append-only and never reorder.
            <HistoryEntry key={`${entry.at}-${i}`} entry={entry} />
          ))}
        </ul>
      </section>
    </div>
  );
}
