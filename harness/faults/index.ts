// The one shape of a fault switch of the three references (the simulator, the receiver, the
// reference SDK): a single, named deviation from the spec, written once as data. Each list is
// the one source of its names: the union type is derived from it, never written beside it.

export interface FaultInfo<N extends string = string> {
  readonly name: N;
  /** What the switch makes the reference do. */
  readonly description: string;
  /** The rules it breaks (`§6 rule 2`, `§5.1 step 4`, …). */
  readonly specRef: string;
}

/** A reference's faults as one frozen list; `(typeof LIST)[number]['name']` is the union of their names. */
export function faultList<N extends string>(faults: readonly FaultInfo<N>[]): readonly FaultInfo<N>[] {
  return Object.freeze(faults.map((fault) => Object.freeze(fault)));
}

/** The check that a name (from a command line, a config file) is one of the list's. */
export function faultGuard<N extends string>(faults: readonly FaultInfo<N>[]): (name: string) => name is N {
  const names = new Set<string>(faults.map((fault) => fault.name));
  return (name: string): name is N => names.has(name);
}
