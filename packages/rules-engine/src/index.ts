export { aggregate, MOVING_AVERAGE } from './aggregate';
export {
  type CompiledFormula,
  compileFormula,
  type FormulaError,
  type FormulaProblem,
} from './compile-formula';
export { EQ_TOLERANCE, holdsLevel, isCrossing, nearlyEqual } from './evaluate-condition';
export {
  type EvaluateTimersOptions,
  type EvaluateTimersResult,
  evaluateSensorChecksOnTimer,
} from './evaluate-timers';
export {
  type EvaluateUplinksOptions,
  type EvaluateUplinksResult,
  evaluateUplinks,
  uplinkTime,
} from './evaluate-uplinks';
export { DEFAULT_TIME_ZONE, type LocalTime, localTime } from './local-time';
export { mapValue } from './map-value';
export { readValue, toNumber } from './read-value';
export { ALLOWED_FUNCTIONS, FORBIDDEN_FUNCTIONS } from './restricted-math';
export { isInSchedule } from './schedule';
export { checkBounds } from './sensor-checks';
export * from './types';
export { validateRule } from './validate-rule';
export {
  type ComputedFields,
  computePreparedFields,
  computeVirtualFields,
  type PointClock,
  type PreparedField,
  type PreparedFields,
  prepareVirtualFields,
  type VirtualFieldProblem,
  validateVirtualField,
} from './virtual-fields';
