/**
 * Rows of the authorization matrix for the parking module (issue #25). Both companies of the world hold
 * the `parking` licence (seedParkingWorld), not the external API; the NGSI-LD export with it is covered
 * in parking.test.ts.
 */
import { homeParkingAreaOf } from './matrix-parking-world';
import { NOT_LOGGED_IN, OK, type Row, type World } from './matrix-world';

const AREA_NOT_FOUND = [404, 40001] as const;
const NO_PARKING = [403, 90070] as const;
const NOT_LICENSED = [403, 27] as const;

const areaOf = (w: World) => homeParkingAreaOf(w) ?? ':home-parking-area';

const areaBody = () => ({ name: 'Matrix car park 2', type: 'AI', capacity: 20 });

//                         anonymous      plain          main           admin          superAdmin     otherMain
export const PARKING_ROWS: Row[] = [
  { method: 'GET', path: () => '/api/v1/parking/areas', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  {
    method: 'POST',
    path: () => '/api/v1/parking/areas',
    body: areaBody,
    expect: [NOT_LOGGED_IN, NO_PARKING, OK, OK, OK, OK],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/parking/areas/${areaOf(w)}`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, AREA_NOT_FOUND, AREA_NOT_FOUND],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/parking/areas/${areaOf(w)}/ngsi-ld`,
    // The open-data export is the external API module's, which neither company of the world holds.
    expect: [NOT_LOGGED_IN, NOT_LICENSED, NOT_LICENSED, NOT_LICENSED, AREA_NOT_FOUND, NOT_LICENSED],
  },
  ...['history'].map(
    (sub): Row => ({
      method: 'GET',
      path: (w) => `/api/v1/parking/areas/${areaOf(w)}/${sub}`,
      expect: [NOT_LOGGED_IN, OK, OK, OK, AREA_NOT_FOUND, AREA_NOT_FOUND],
    }),
  ),
  {
    method: 'PUT',
    path: (w) => `/api/v1/parking/areas/${areaOf(w)}`,
    body: areaBody,
    expect: [NOT_LOGGED_IN, NO_PARKING, OK, OK, AREA_NOT_FOUND, AREA_NOT_FOUND],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/parking/areas/${areaOf(w)}`,
    expect: [NOT_LOGGED_IN, NO_PARKING, OK, OK, AREA_NOT_FOUND, AREA_NOT_FOUND],
  },
];
