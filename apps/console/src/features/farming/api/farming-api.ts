import type {
  CatalogueEntry,
  FarmingField,
  FarmingTask,
  FieldBoundary,
  FieldDevice,
  ManyCurrentValues,
  Parcel,
} from '@iot/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { STARTUP_KEYS } from '../../../app/use-startup-loads';
import { api } from '../../../lib/api-client';

export type {
  CatalogueEntry,
  FarmingField,
  FarmingTask,
  FieldBoundary,
  FieldDevice,
  ManyCurrentValues,
  Parcel,
};

// The start-up load of /farming/fields uses this key, so the page opens on its answer.
export const fieldsQueryOptions = () =>
  queryOptions({
    queryKey: STARTUP_KEYS.farmingFields,
    queryFn: () => api<FarmingField[] | null>('/farming/fields'),
  });
export const parcelsQueryOptions = () =>
  queryOptions({ queryKey: ['farming', 'parcels'], queryFn: () => api<Parcel[]>('/farming/parcels') });
export const fieldDevicesQueryOptions = () =>
  queryOptions({
    queryKey: ['farming', 'field-devices'],
    queryFn: () => api<FieldDevice[]>('/farming/fields/devices'),
  });
export const catalogueQueryOptions = (kind: 'soils' | 'plants') =>
  queryOptions({ queryKey: ['farming', kind], queryFn: () => api<CatalogueEntry[]>(`/farming/${kind}`) });
export const tasksQueryOptions = (view: string, from?: string, to?: string) =>
  queryOptions({
    queryKey: ['farming', 'tasks', view, from ?? '', to ?? ''],
    queryFn: () => {
      const params = new URLSearchParams({ view });
      if (from) params.set('from', from);
      if (to) params.set('to', to);
      return api<FarmingTask[]>(`/farming/tasks?${params}`);
    },
  });

export const taskQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['farming', 'tasks', 'one', id],
    queryFn: () => api<FarmingTask>(`/farming/tasks/${id}`),
  });

/** The company's users, for the task assignee (everyone of a company may list them). */
export interface CompanyUser {
  id: number;
  name: string | null;
  email: string;
}
export const companyUsersQueryOptions = () =>
  queryOptions({ queryKey: ['farming', 'users'], queryFn: () => api<CompanyUser[]>('/core/users') });

/** The latest values of the devices on the fields (the live view, the field list's last reading). */
export const fieldsCurrentQueryOptions = (deviceIds: readonly number[]) =>
  queryOptions({
    queryKey: ['farming', 'current', deviceIds.join(',')],
    queryFn: () => api<ManyCurrentValues>('/core/devices/current', { query: { ids: deviceIds.join(',') } }),
    enabled: deviceIds.length > 0,
    refetchInterval: 60_000,
  });

export const useFields = () => useQuery(fieldsQueryOptions());
export const useTask = (id: number) => useQuery(taskQueryOptions(id));
export const useCompanyUsers = () => useQuery(companyUsersQueryOptions());
export const useFieldsCurrent = (deviceIds: readonly number[]) =>
  useQuery(fieldsCurrentQueryOptions(deviceIds));
export const useParcels = () => useQuery(parcelsQueryOptions());
export const useFieldDevices = () => useQuery(fieldDevicesQueryOptions());
export const useCatalogue = (kind: 'soils' | 'plants') => useQuery(catalogueQueryOptions(kind));

/** Every farming write moves parcels, devices or sizes between rows: all farming lists are reloaded. */
function useFarmingMutation<I, O>(fn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['farming'] }),
  });
}

export interface FieldSave {
  id: number | null;
  name: string;
  soil: string | null;
  plant: string | null;
  boundary: FieldBoundary | null;
  parcels: number[];
  device_ids: number[];
}

/** Create, or update then assign parcels and devices (the spec's three calls). */
export function useSaveField() {
  return useFarmingMutation(async ({ id, parcels, device_ids, ...body }: FieldSave) => {
    if (id === null)
      return api<FarmingField>('/farming/fields', { method: 'POST', body: { ...body, parcels, device_ids } });
    await api<FarmingField>(`/farming/fields/${id}`, { method: 'PUT', body });
    await api<FarmingField>(`/farming/fields/${id}/assign/parcels`, {
      method: 'PUT',
      body: { field_id: id, parcels },
    });
    return api<FarmingField>(`/farming/fields/${id}/assign/devices`, {
      method: 'PUT',
      body: { field_id: id, device_ids },
    });
  });
}

export const useDeleteField = () =>
  useFarmingMutation((id: number) => api(`/farming/fields/${id}`, { method: 'DELETE' }));

export interface ParcelSave {
  id: number | null;
  parcel_id: string;
  registration_number: string;
  size_m2: number;
  boundary?: FieldBoundary | null;
  valid_from?: string | null;
  valid_to?: string | null;
}

export function saveParcel({ id, ...body }: ParcelSave): Promise<Parcel> {
  return id === null
    ? api<Parcel>('/farming/parcels', { method: 'POST', body })
    : api<Parcel>(`/farming/parcels/${id}`, { method: 'PUT', body });
}
export const useSaveParcel = () => useFarmingMutation(saveParcel);
export interface CatalogueSave {
  kind: 'soils' | 'plants';
  id: number | null;
  code: string;
  name_de: string;
  name_en: string;
}
/** Adds one of the company's own soils or plants, or renames one (its code stays). */
export const useSaveCatalogueEntry = () =>
  useFarmingMutation(({ kind, id, code, ...names }: CatalogueSave) =>
    id === null
      ? api<CatalogueEntry>(`/farming/${kind}`, { method: 'POST', body: { code, ...names } })
      : api<CatalogueEntry>(`/farming/${kind}/${id}`, { method: 'PUT', body: names }),
  );
export const useDeleteCatalogueEntry = () =>
  useFarmingMutation(({ kind, id }: { kind: 'soils' | 'plants'; id: number }) =>
    api(`/farming/${kind}/${id}`, { method: 'DELETE' }),
  );

export const useDeleteParcel = () =>
  useFarmingMutation((id: number) => api(`/farming/parcels/${id}`, { method: 'DELETE' }));

export interface TaskSave {
  id: number | null;
  title?: string;
  type?: string;
  status?: FarmingTask['status'];
  abandon_reason?: string | null;
  due_at?: string | null;
  assignee_user_id?: number | null;
  field_ids?: number[];
  notes?: string | null;
}
export const useSaveTask = () =>
  useFarmingMutation(({ id, ...body }: TaskSave) =>
    id === null
      ? api<FarmingTask>('/farming/tasks', { method: 'POST', body })
      : api<FarmingTask>(`/farming/tasks/${id}`, { method: 'PUT', body }),
  );
