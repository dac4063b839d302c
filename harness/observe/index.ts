// Public face of observing a receiver (DESIGN.md "Observing a receiver as it is"): one
// RecordObserver for the three ways (test hooks, the receiver's database, a command), opened
// once per run as an Observation, checked before any case.
export {
  ObserveError, abilitiesOf, RECORD_STATES,
  type CaseUse, type HookHttp, type MappedState, type Observation, type ObservedStep, type ObserverAbilities, type ObserveSpec,
  type ObserveWay, type RecordObserver, type RecordReading, type RecordState, type StateMap,
} from './model.ts';
export { mapState, statesProblems, describeRecord, valueText } from './states.ts';
export { HooksObserver } from './hooks.ts';
export { SqlObservation } from './sql.ts';
export { CommandObservation, parseObserverLine, parseObserverManyLine, type ObserverAnswer, type ObserverManyAnswer } from './command.ts';
export { openObservation, commandAnswerLimitMs, MIN_COMMAND_ANSWER_MS, type OpenObservationOptions } from './open.ts';
export { checkObservation, checkCallbackSeen, openCheckedObservation, ObserveCheckError, stepText, CHECK_AMOUNT, type CallbackTarget, type CheckIds, type ObservationCheck } from './check.ts';
