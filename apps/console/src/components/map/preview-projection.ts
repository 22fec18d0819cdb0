import type { GeoProjection } from 'd3-geo';

const RADIANS = Math.PI / 180;

/**
 * Where d3's web mercator puts a longitude and latitude, as plain arithmetic: the preview projects every
 * device (10,000 in a fleet), and d3's projection(point) allocates and passes through its rotation and
 * transform stages for each. Valid for a geoMercator fitted with fitExtent: no rotation, its centre at
 * (0, 0), only its scale and translation set.
 */
export function mercatorPointOf(
  projection: GeoProjection,
): (longitude: number, latitude: number) => [number, number] {
  const k = projection.scale();
  const [tx, ty] = projection.translate();
  return (longitude, latitude) => [
    tx + k * longitude * RADIANS,
    ty - k * Math.log(Math.tan((Math.PI / 2 + latitude * RADIANS) / 2)),
  ];
}
