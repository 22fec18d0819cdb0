import { TASK_TYPES } from '@iot/domain';
import { useQuery } from '@tanstack/react-query';
import { addDays, addWeeks, format, isSameDay, startOfWeek } from 'date-fns';
import { de as deLocale, enGB } from 'date-fns/locale';
import { ChevronLeftIcon, ChevronRightIcon, ClipboardListIcon, PencilIcon, PlusIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOverlay } from '../../../components/shell/overlay-host';
import { PageHeader } from '../../../components/shell/page-header';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { formatDateTime } from '../../../lib/format';
import {
  type FarmingTask,
  tasksQueryOptions,
  useCompanyUsers,
  useFields,
  useSaveTask,
} from '../api/farming-api';
import { TaskDrawer } from './task-drawer';

const VIEWS = ['mine', 'overdue', 'upcoming', 'done'] as const;
const STATUSES = ['planned', 'in_progress', 'done', 'abandoned'] as const;

/**
 * /farming/task: the task planner's views (mine, overdue, upcoming, done) and a calendar by week; a
 * task's drawer edits it (assignee, several fields) and shows its history.
 */
export function TasksPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [view, setView] = useState<(typeof VIEWS)[number]>('upcoming');
  const [week, setWeek] = useState(() => startOfWeek(new Date(), { weekStartsOn: 1 }));
  const tasks = useQuery(tasksQueryOptions(view));
  const weekTasks = useQuery(tasksQueryOptions('all', week.toISOString(), addWeeks(week, 1).toISOString()));
  const fields = useFields();
  const save = useSaveTask();
  const [draft, setDraft] = useState({ title: '', type: 'irrigation', due: '', field: '' });
  const users = useCompanyUsers();
  const overlay = useOverlay();
  const fieldNames = (ids: readonly number[]) =>
    ids.map((id) => fields.data?.find((f) => f.id === id)?.name ?? `#${id}`).join(', ') || '–';
  const userName = (id: number | null) => {
    const u = users.data?.find((x) => x.id === id);
    return id === null ? '–' : u ? u.name || u.email : `#${id}`;
  };
  const openTask = (task: FarmingTask) =>
    overlay.openDrawer({
      header: { name: task.title, icon: <ClipboardListIcon />, id: task.id },
      testId: 'task-drawer',
      render: (close) => <TaskDrawer taskId={task.id} onDone={close} />,
    });

  const add = (e: React.FormEvent) => {
    e.preventDefault();
    save.mutate(
      {
        id: null,
        title: draft.title,
        type: draft.type,
        due_at: draft.due ? new Date(draft.due).toISOString() : null,
        field_ids: draft.field ? [Number(draft.field)] : [],
      },
      { onSuccess: () => setDraft({ ...draft, title: '' }) },
    );
  };
  const setStatus = (task: FarmingTask, status: FarmingTask['status']) => {
    const abandon_reason = status === 'abandoned' ? window.prompt(t('farming.abandon-reason')) : null;
    if (status === 'abandoned' && !abandon_reason) return;
    save.mutate({ id: task.id, status, ...(abandon_reason ? { abandon_reason } : {}) });
  };
  const dfLocale = lang.startsWith('de') ? deLocale : enGB;

  return (
    <div className="flex flex-col gap-4" data-testid="farming-tasks-page">
      <PageHeader title={t('page.farming-task')} />
      <Card className="p-4">
        <form onSubmit={add} className="flex flex-wrap items-end gap-2" data-testid="task-form">
          <Input
            placeholder={t('farming.task-title')}
            value={draft.title}
            onChange={(e) => setDraft({ ...draft, title: e.target.value })}
            className="w-64"
            data-testid="task-title"
          />
          <NativeSelect
            value={draft.type}
            onChange={(e) => setDraft({ ...draft, type: e.target.value })}
            data-testid="task-type"
          >
            {TASK_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`farming.task-type-${type}`)}
              </option>
            ))}
          </NativeSelect>
          <Input
            type="datetime-local"
            value={draft.due}
            onChange={(e) => setDraft({ ...draft, due: e.target.value })}
            className="w-56"
            data-testid="task-due"
          />
          <NativeSelect
            value={draft.field}
            onChange={(e) => setDraft({ ...draft, field: e.target.value })}
            data-testid="task-field"
          >
            <option value="">{t('farming.no-field')}</option>
            {(fields.data ?? []).map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </NativeSelect>
          <Button type="submit" disabled={!draft.title.trim()} data-testid="task-add">
            <PlusIcon />
            {t('farming.add-task')}
          </Button>
        </form>
      </Card>
      <div className="flex gap-2" role="tablist">
        {VIEWS.map((v) => (
          <Button
            key={v}
            variant={v === view ? 'default' : 'outline'}
            size="sm"
            onClick={() => setView(v)}
            data-testid={`task-view-${v}`}
          >
            {t(`farming.view-${v}`)}
          </Button>
        ))}
      </div>
      <Card className="p-0">
        <Table data-testid="tasks-table">
          <TableHeader>
            <TableRow>
              <TableHead>{t('farming.task-title')}</TableHead>
              <TableHead>{t('farming.task-type')}</TableHead>
              <TableHead>{t('farming.fields')}</TableHead>
              <TableHead>{t('farming.assignee')}</TableHead>
              <TableHead>{t('farming.due')}</TableHead>
              <TableHead>{t('farming.status')}</TableHead>
              <TableHead className="w-12" />
            </TableRow>
          </TableHeader>
          <TableBody>
            {(tasks.data ?? []).map((task) => (
              <TableRow key={task.id} data-testid={`task-row-${task.id}`}>
                <TableCell className="font-medium">
                  {task.title}
                  {task.late && <span className="ml-2 text-xs text-red-600">{t('farming.late')}</span>}
                </TableCell>
                <TableCell>{t(`farming.task-type-${task.type as (typeof TASK_TYPES)[number]}`)}</TableCell>
                <TableCell data-testid={`task-fields-${task.id}`}>{fieldNames(task.field_ids)}</TableCell>
                <TableCell data-testid={`task-assignee-${task.id}`}>
                  {userName(task.assignee_user_id)}
                </TableCell>
                <TableCell>{task.due_at ? formatDateTime(task.due_at, lang) : '–'}</TableCell>
                <TableCell>
                  <NativeSelect
                    value={task.status}
                    onChange={(e) => setStatus(task, e.target.value as FarmingTask['status'])}
                    data-testid={`task-status-${task.id}`}
                  >
                    {STATUSES.map((s) => (
                      <option key={s} value={s}>
                        {t(`farming.status-${s}`)}
                      </option>
                    ))}
                  </NativeSelect>
                </TableCell>
                <TableCell>
                  <Button
                    size="icon"
                    variant="ghost"
                    aria-label={t('farming.open-task')}
                    onClick={() => openTask(task)}
                    data-testid={`task-open-${task.id}`}
                  >
                    <PencilIcon />
                  </Button>
                </TableCell>
              </TableRow>
            ))}
            {tasks.isSuccess && tasks.data.length === 0 && (
              <TableRow>
                <TableCell colSpan={7} className="text-center text-muted-foreground">
                  {t('common.no-data')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </Card>
      <Card className="flex flex-col gap-2 p-4" data-testid="task-calendar">
        <div className="flex items-center gap-2">
          <Button
            size="icon"
            variant="ghost"
            aria-label={t('farming.previous-week')}
            onClick={() => setWeek((w) => addWeeks(w, -1))}
          >
            <ChevronLeftIcon />
          </Button>
          <span className="font-medium">
            {t('farming.week-of', { date: format(week, 'P', { locale: dfLocale }) })}
          </span>
          <Button
            size="icon"
            variant="ghost"
            aria-label={t('farming.next-week')}
            onClick={() => setWeek((w) => addWeeks(w, 1))}
          >
            <ChevronRightIcon />
          </Button>
        </div>
        <div className="grid grid-cols-7 gap-1 text-sm">
          {Array.from({ length: 7 }, (_, i) => addDays(week, i)).map((day) => (
            <div key={day.toISOString()} className="min-h-24 rounded border p-1">
              <div className="text-xs text-muted-foreground">
                {format(day, 'EEE d.M.', { locale: dfLocale })}
              </div>
              {(weekTasks.data ?? [])
                .filter((task) => task.due_at && isSameDay(new Date(task.due_at), day))
                .map((task) => (
                  <div
                    key={task.id}
                    className={`truncate rounded px-1 ${task.status === 'done' ? 'bg-green-100 line-through' : task.late ? 'bg-red-100' : 'bg-muted'}`}
                  >
                    {task.title}
                  </div>
                ))}
            </div>
          ))}
        </div>
      </Card>
    </div>
  );
}
