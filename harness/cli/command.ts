// What every subcommand's module (commands/*.ts) is given and gives back: a leaf, so the modules
// need not import the entry point (index.ts) that loads them.
import type { Command } from 'commander';

/** Every subcommand builder receives this to report its exit status. */
export type SetExitCode = (code: number) => void;

/** A subcommand's module: builds its Command, reporting its exit status through setExitCode. */
export type CommandBuilder = (setExitCode: SetExitCode) => Command;
