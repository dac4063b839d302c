// One style for every command's --help, applied in one place (index.ts) so no command drifts:
// descriptions start with a capital letter; choices and defaults are written unquoted as
// `(one of: a, b; default: x)`; placeholders are lower case (`<dir>`, `<file>`); the usage line
// is the command's synopsis, built from its options (the synopsis of docs/command-line.md is
// checked against it); and every command ends with the same list of exit statuses. Nothing
// heavy is imported here: commands stay cheap to declare.
import type { Command, Help, Option } from 'commander';

/** The exit statuses of DESIGN.md, the same text under every command. */
export const EXIT_STATUS_HELP = `
Exit status:
  0  No case FAIL or ERROR (simulate and receiver: stopped by SIGINT or SIGTERM)
  1  At least one FAIL or ERROR (pact verify: an interaction failed)
  2  Bad usage, or an invalid target or config file (the message names the field)
  3  The target could not be reached at all (the first connection failed)`;

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function shown(value: unknown): string {
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** `Address to listen on (default: 127.0.0.1)`, `Which side to test (one of: service, receiver, all)` */
export function optionDescription(option: Option): string {
  const extra: string[] = [];
  if (option.argChoices) extra.push(`one of: ${option.argChoices.join(', ')}`);
  const hasDefault = option.defaultValue !== undefined && !(Array.isArray(option.defaultValue) && option.defaultValue.length === 0) && !option.isBoolean();
  if (hasDefault) extra.push(`default: ${option.defaultValueDescription ?? shown(option.defaultValue)}`);
  const text = capitalised(option.description);
  return extra.length > 0 ? `${text} (${extra.join('; ')})` : text;
}

/** One option in the synopsis: `[--side service|receiver|all]`, `--base-url <url>`, `[--fault <name>]…` */
function synopsisTerm(option: Option): string {
  const name = option.long ?? option.short ?? '';
  let term = name;
  if (option.argChoices) term += ` ${option.argChoices.join('|')}`;
  else if (option.required) term += ` ${/<[^>]+>/.exec(option.flags)?.[0] ?? '<value>'}`;
  else if (option.optional) term += ` ${/\[[^\]]+\]/.exec(option.flags)?.[0] ?? '[value]'}`;
  if (!option.mandatory) term = `[${term}]`;
  return Array.isArray(option.defaultValue) ? `${term}…` : term;
}

/** The usage line of a command: its options, mandatory ones bare, in the order declared. */
export function synopsis(cmd: Command): string {
  const options = (cmd.options as readonly Option[]).filter((o) => !o.hidden && o.long !== '--help');
  const subcommands = cmd.commands.length > 0 ? ['<command>'] : [];
  return [...options.map(synopsisTerm), ...subcommands].join(' ');
}

/** The full name of a command as typed: `collect-conformance pact verify`. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Applies the shared style to a command and all its subcommands. */
export function styleHelp(cmd: Command): Command {
  cmd.helpOption('-h, --help', 'Show this help');
  cmd.configureHelp({ optionDescription: (option: Option) => optionDescription(option), sortOptions: false } satisfies Partial<Help>);
  if (cmd.description()) cmd.description(capitalised(cmd.description()));
  for (const sub of cmd.commands) styleHelp(sub);
  if (cmd.commands.length > 0) cmd.helpCommand('help [command]', 'Show the help of a command');
  if (cmd.parent) {
    cmd.usage(synopsis(cmd));
    cmd.addHelpText('after', EXIT_STATUS_HELP);
  }
  return cmd;
}
