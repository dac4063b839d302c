// SIGINT and SIGTERM during a run (Ctrl-C, `timeout`, a cancelled CI job, `docker stop`): the
// run stops its commands (the SDK adapter, the signer: each its whole process group), writes
// what its reports can honestly say (the run was interrupted; the cases that had not finished
// are ERROR, never PASS), gives the report directory back and ends with 128 + the signal's
// number: 130 for SIGINT, 143 for SIGTERM. A second signal ends it at once.
import { SIGNAL_EXIT_STATUS, type StopSignal } from '../run/index.ts';

export interface StopSignals {
  /** Resolves with the first signal and when it came. */
  readonly first: Promise<{ signal: StopSignal; at: Date }>;
  /** The first signal, once it came. */
  readonly received: StopSignal | undefined;
  /** Stops listening (the end of the run). */
  dispose(): void;
}

/** Listens for SIGINT and SIGTERM until disposed; a second one exits at once with its status. */
export function watchStopSignals(): StopSignals {
  let received: StopSignal | undefined;
  let resolveFirst: (value: { signal: StopSignal; at: Date }) => void = () => {};
  const first = new Promise<{ signal: StopSignal; at: Date }>((resolve) => {
    resolveFirst = resolve;
  });
  const on = (signal: StopSignal) => () => {
    if (received !== undefined) {
      // Asked twice: no more waiting. The exit handlers still kill the commands' groups and give the lock back.
      process.exit(SIGNAL_EXIT_STATUS[signal]);
    }
    received = signal;
    resolveFirst({ signal, at: new Date() });
  };
  const onInt = on('SIGINT');
  const onTerm = on('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return {
    first,
    get received() {
      return received;
    },
    dispose() {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    },
  };
}

