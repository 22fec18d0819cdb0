/** Toast severities (spec section 3). */
export const TOAST_SEVERITIES = ['info', 'success', 'warn', 'error', 'secondary', 'contrast'] as const;
export type ToastSeverity = (typeof TOAST_SEVERITIES)[number];

/** Parking area types: fixed sensors or AI detection; shown lower-case as fix/ai (spec section 3). */
export const PARKING_AREA_TYPES = ['FIX', 'AI'] as const;
export type ParkingAreaType = (typeof PARKING_AREA_TYPES)[number];

/** Parking area icons (spec section 3). */
export const PARKING_AREA_ICONS = {
  PS: 'car_park',
  TP: 'temporary_car_park',
  PU: 'underground_parking',
  PG: 'parking_garage',
} as const;
export type ParkingAreaIcon = keyof typeof PARKING_AREA_ICONS;

/** Dashboard widget types and time ranges (spec section 2). */
export const WIDGET_TYPES = ['table', 'line_chart', 'map'] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];
export const TIME_RANGES = ['24h', '1w', '1m', '6m', '1y'] as const;
export type TimeRange = (typeof TIME_RANGES)[number];

/** Icon font (spec section 9). */
export const ICON_FONT = { name: 'zcons', prefix: 'icon-' } as const;

export function parkingAreaTypeLabel(type: ParkingAreaType): 'fix' | 'ai' {
  return type === 'FIX' ? 'fix' : 'ai';
}
