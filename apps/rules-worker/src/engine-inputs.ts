import type {
  RulesWorkerAction,
  RulesWorkerRule,
  RulesWorkerSensorCheck,
  RulesWorkerVirtualField,
} from '@iot/db';
import type { ConditionOperator } from '@iot/domain';
import type { Rule, SensorCheck, VirtualField } from '@iot/rules-engine';

/**
 * The engine's rule per row, made once per row object: the rule cache (rule-cache.ts) keeps a row
 * between batches while its version holds and changes only its `state`, which the engine rule does not
 * carry, so a batch of small batches (one uplink per device, the usual case at 1,000 uplinks/s) no
 * longer builds ten rule objects per device and uplink. A row read again is a new object.
 */
const engineRules = new WeakMap<RulesWorkerRule, Rule<RulesWorkerAction>>();

/** Rows as the engine takes them (ids as strings; actions passed through to the firings). */
export function toEngineRule(row: RulesWorkerRule): Rule<RulesWorkerAction> {
  let rule = engineRules.get(row);
  if (!rule) {
    rule = engineRuleOf(row);
    engineRules.set(row, rule);
  }
  return rule;
}

function engineRuleOf(row: RulesWorkerRule): Rule<RulesWorkerAction> {
  return {
    id: String(row.id),
    trigger: row.trigger,
    dataField: row.dataField,
    operator: row.operator as ConditionOperator | null,
    value: row.value,
    rangeMin: row.rangeMin,
    rangeMax: row.rangeMax,
    timeWindowSeconds: row.timeWindowSeconds,
    scheduleStart: row.scheduleStart,
    scheduleEnd: row.scheduleEnd,
    scheduleWeekdays: row.scheduleWeekdays,
    maxActions: row.maxActions,
    maxActionsPeriodSeconds: row.maxActionsPeriodSeconds,
    clickType: row.clickType,
    maxClicks: row.maxClicks,
    actions: row.actions,
  };
}

export function toEngineVirtualField(row: RulesWorkerVirtualField): VirtualField {
  return {
    id: String(row.id),
    uuid: row.uuid,
    name: row.name,
    unit: row.unit,
    formula: row.formula,
    function: row.function,
    mapping: row.mapping,
    store: row.store,
  };
}

export function toEngineSensorCheck(row: RulesWorkerSensorCheck): SensorCheck {
  return {
    id: String(row.id),
    kind: row.kind,
    dataField: row.dataField,
    maxSilenceSeconds: row.maxSilenceSeconds,
    minValue: row.minValue,
    maxValue: row.maxValue,
  };
}
