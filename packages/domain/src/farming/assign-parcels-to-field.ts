/** The parts of a parcel and a farming field this rule reads and writes (spec section 3). */
export interface ParcelArea {
  id: number;
  size_m2: number;
}

export interface FieldParcels<P extends ParcelArea = ParcelArea> {
  id: number;
  parcels: readonly P[];
  count_parcels: number;
  size_m2: number;
}

/** A field's area is the sum of its parcels' size_m2 (spec section 4). */
export function sumParcelArea(parcels: readonly ParcelArea[]): number {
  return parcels.reduce((sum, parcel) => sum + (Number.isFinite(parcel.size_m2) ? parcel.size_m2 : 0), 0);
}

/**
 * Assigns exactly `parcels` to the field `fieldId` (spec section 4): its parcel count and area follow
 * the new list, and the same parcels leave every other field, whose count and area are recomputed.
 * Returns new field objects; fields that do not change are returned as they were.
 */
export function assignParcelsToField<P extends ParcelArea, F extends FieldParcels<P>>(options: {
  fields: readonly F[];
  fieldId: number;
  // The parcel type comes from the fields, so an empty list does not narrow it to never.
  parcels: readonly NoInfer<P>[];
}): F[] {
  const moving = new Set(options.parcels.map((parcel) => parcel.id));
  return options.fields.map((field) => {
    if (field.id === options.fieldId) {
      return {
        ...field,
        parcels: options.parcels,
        count_parcels: options.parcels.length,
        size_m2: sumParcelArea(options.parcels),
      };
    }
    if (!field.parcels.some((parcel) => moving.has(parcel.id))) return field;
    const kept = field.parcels.filter((parcel) => !moving.has(parcel.id));
    return { ...field, parcels: kept, count_parcels: kept.length, size_m2: sumParcelArea(kept) };
  });
}
