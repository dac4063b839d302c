// How a transaction ends (§3): by customer number. The messages contain spaces and
// parentheses so that the callback's form encoding (+ and %XX, §6) is always exercised.
import type { SimulatorConfig } from './config.ts';

export interface Outcome {
  status: 'SUCCESS' | 'FAILED';
  message: string;
}

export function decideOutcome(customerNumber: string, amount: string, rule: SimulatorConfig['outcome']): Outcome {
  if (rule.failingSuffixes.some((suffix) => suffix !== '' && customerNumber.endsWith(suffix))) {
    return { status: 'FAILED', message: `Insufficient funds (GHS ${amount} requested)` };
  }
  return { status: 'SUCCESS', message: `Payment of GHS ${amount} received` };
}
