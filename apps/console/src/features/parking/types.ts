/** Car parks as /parking/areas answers them (issue #25). */
export type { ParkingArea, ParkingAreaInput, ParkingBay, ParkingHistory } from '@iot/contracts';
