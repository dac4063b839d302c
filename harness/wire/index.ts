// Public face of the wire: the gate every exchange of ours with a target goes through, so that a
// measurement (reply latency, a burst, concurrent duplicates) has the wire to itself.
export { WireGate, WireWaitAborted } from './gate.ts';
export { CaseWire, OPEN_WIRE, type CaseWireUse, type Wire } from './case-wire.ts';
