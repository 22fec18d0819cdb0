import type { NwaRequestRecord } from '@iot/db';
import type { MeterHistoryView, WaterUsageView } from '../../../../services/compute-water-usage';
import type {
  WaterAssociationDetails,
  WaterAssociationSummary,
  WaterMemberView,
  WaterRequestView,
} from '../../../../services/read-water-associations';
import type { SharedDeviceView } from '../../../../services/share-water-devices';

export function presentNwaSummary(s: WaterAssociationSummary) {
  return {
    id: s.card.id,
    name: s.card.name,
    city: s.card.city,
    role: s.role,
    is_admin: s.isAdmin,
    member_count: s.counts.members,
    open_request_count: s.counts.openRequests,
    shared_device_count: s.counts.sharedDevices,
  };
}

export function presentNwaMember(m: WaterMemberView) {
  return {
    company_id: m.companyId,
    name: m.card.name,
    city: m.card.city,
    is_admin: m.isAdmin,
    joined_at: m.joinedAt.toISOString(),
    allowance_per_hour: m.allowancePerHour,
    allowance_per_year: m.allowancePerYear,
  };
}

export function presentNwaDetails(d: WaterAssociationDetails) {
  return {
    ...presentNwaSummary(d),
    settings: {
      max_flow_per_hour: d.settings.maxFlowPerHour,
      max_volume_per_year: d.settings.maxVolumePerYear,
      water_year_start_month: d.settings.waterYearStartMonth,
      time_zone: d.settings.timeZone,
      members_see_shared_devices: d.settings.membersSeeSharedDevices,
      close_valves_at_limit: d.settings.closeValvesAtLimit,
    },
    members: d.members.map(presentNwaMember),
  };
}

export function presentNwaRequest(r: WaterRequestView | (NwaRequestRecord & { card?: undefined })) {
  return {
    id: r.id,
    nwa_id: r.nwaId,
    company_id: r.companyId,
    company_name: r.card?.name ?? '',
    city: r.card?.city ?? null,
    state: r.state,
    created_at: r.createdAt.toISOString(),
  };
}

export function presentSharedDevice(s: SharedDeviceView) {
  return {
    nwa_id: s.nwaId,
    device_id: s.deviceId,
    name: s.name,
    owner_company_id: s.ownerCompanyId,
    owner_name: s.ownerName,
    access: s.access,
    data_field: s.dataField,
    unit: s.unit,
    meter_factor: s.meterFactor,
    counts_against_company_id: s.countsAgainstCompanyId,
    latitude: s.latitude,
    longitude: s.longitude,
    last_value: s.lastValue,
    last_reading_at: s.lastReadingAt?.toISOString() ?? null,
    shared_at: s.sharedAt.toISOString(),
  };
}

export function presentUsage(u: WaterUsageView) {
  return {
    nwa_id: u.nwaId,
    year_start: u.year.start.toISOString(),
    year_end: u.year.end.toISOString(),
    time_zone: u.settings.timeZone,
    total_used: u.totalUsed,
    max_volume_per_year: u.settings.maxVolumePerYear,
    max_flow_per_hour: u.settings.maxFlowPerHour,
    max_hourly: u.maxHourly,
    members: u.members.map((m) => ({
      company_id: m.companyId,
      name: m.name,
      used: m.used,
      allowance: m.allowance,
      percent: m.percent,
      remaining: m.remaining,
      projected: m.projected,
      max_hourly: m.maxHourly,
      hourly_cap: m.hourlyCap,
      hourly_cap_exceeded: m.hourlyCapExceeded,
      last_reading_age_minutes: m.lastReadingAgeMinutes,
      daily: m.daily,
    })),
  };
}

export function presentMeterHistory(h: MeterHistoryView) {
  return {
    device_id: h.deviceId,
    readings: h.readings.map((r) => ({ at: r.at.toISOString(), value: r.value })),
    daily: h.daily,
    counter_resets: h.counterResets,
  };
}
