/** Car parks as /parking/areas answers them (issue #25). */
export type { ParkingArea, ParkingAreaInput, ParkingHistory } from '@iot/contracts';
