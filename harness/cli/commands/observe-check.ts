// `collect-conformance observe-check --target FILE`: before a full run, one record seeded and
// read back through the receiver target's hooksUrl or observe, and an id never seeded read, each
// step printed with what it ran and saw (statements, parameters, rows; requests and answers).
// A database is checked inside a transaction rolled back at the end. Then, through test hooks or
// a command, one valid callback for a record seeded for it (it stays, as a case's does) shows
// that the receiver sees those records. Exit 0 when the mapping works and the callback is
// applied, 2 when not (the key, the statement, the store's or the receiver's answer named).
import { Command } from 'commander';
import { defaultTimeouts } from '../../runner/index.ts';
import { randomSeed, shapedIds, transactionIds } from '../../ids/index.ts';
import { DatabaseError } from '../../database/index.ts';
import { checkCallbackSeen, checkObservation, openObservation } from '../../observe/index.ts';
import { Redactor } from '../../secrets/index.ts';
import { loadTargetFile, secretEnvName, secretsOf, TargetFileError } from '../../targets/index.ts';
import { OPEN_WIRE } from '../../wire/index.ts';
import { UsageError } from '../../tool/index.ts';
import type { SetExitCode } from '../command.ts';
import { HttpClient } from '../../http/index.ts';

export interface ObserveCheckIo {
  stdout: (text: string) => void;
  env: Record<string, string | undefined>;
  cwd: string;
}

const processIo = (): ObserveCheckIo => ({ stdout: (t) => process.stdout.write(t), env: process.env, cwd: process.cwd() });

export function observeCheckCommand(setExitCode: SetExitCode): Command {
  return new Command('observe-check')
    .description('seed one record and read it back through a receiver target\'s hooksUrl or observe, then send one valid callback for a seeded record, printing each step')
    .requiredOption('--target <file>', 'a receiver target file with hooksUrl or observe (docs/observe.md)')
    .action(async (options: { target: string }) => {
      setExitCode(await observeCheck(options.target));
    });
}

/** Returns 0 when a seeded record reads pending (and 0 actions) and an id never seeded reads nothing; throws UsageError (exit 2) otherwise. */
export async function observeCheck(path: string, io: ObserveCheckIo = processIo()): Promise<number> {
  let target;
  try {
    target = loadTargetFile(path, io.env);
  } catch (error) {
    if (error instanceof TargetFileError) throw new UsageError(error.message, error.code);
    throw error;
  }
  if (target.side !== 'receiver') throw new UsageError(`--target: ${path} is a ${target.side} target; observe-check reads a receiver's records`);
  if (!target.observe) throw new UsageError(`--target: ${path} names neither hooksUrl nor observe: there are no records to check`);
  const redactor = new Redactor(secretsOf(target));
  const timeoutMs = defaultTimeouts(target).perRequestTimeoutMs;
  let observation;
  try {
    observation = await openObservation(target.observe, { timeoutMs, redactor, cwd: io.cwd });
  } catch (error) {
    if (error instanceof DatabaseError) throw new UsageError(redactor.text(`${path}: /observe/database: ${error.message}`), error.code);
    throw error;
  }
  const http = new HttpClient({ requestTimeoutMs: timeoutMs, ...(target.caCert ? { caCert: target.caCert } : {}) });
  try {
    const ids = shapedIds(transactionIds(randomSeed()), target.transactionIds);
    const use = { http, wire: OPEN_WIRE, signal: new AbortController().signal };
    const checked = await checkObservation(observation, use, { seeded: ids.newTransactionId(), unseeded: ids.newTransactionId() });
    // Then the receiver itself: one valid callback for a record seeded outside the rolled-back check.
    const seen = checked.ok
      ? await checkCallbackSeen(observation, use, {
        callbackUrl: target.callbackUrl, tokenEnv: secretEnvName(target, 'callbackToken') ?? 'the environment', replyDeadlineMs: target.timing.replyDeadlineMs,
        ...(target.callbackToken !== undefined ? { callbackToken: target.callbackToken } : {}),
      }, ids.newTransactionId(), redactor)
      : checked;
    for (const line of checked.ok ? [...checked.lines, ...seen.lines] : checked.lines) io.stdout(`${redactor.text(line)}\n`);
    if (!seen.ok) throw new UsageError(redactor.text(`${path}: ${seen.field}: ${seen.problem}`), 'ERR_OBSERVE_CHECK');
    return 0;
  } finally {
    await http.close();
    await observation.close();
  }
}
