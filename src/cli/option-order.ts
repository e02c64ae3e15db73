import type { Command, Option } from 'commander';

/**
 * Commander checks required options before unknown ones, so a misspelt `--mappin` was told as
 * "required option '--mapping <file>' not specified". Here each required option is
 * checked after them instead: commander's own check is switched off and the same one runs in a
 * preAction hook, which comes after commander has refused unknown options (with its "did you
 * mean" suggestion) and missing arguments. Only commander's public API: `mandatory`, hooks, error().
 */
export function reportUnknownOptionsFirst(command: Command): void {
  const required: Option[] = command.options.filter((option) => option.mandatory);
  for (const option of required) option.makeOptionMandatory(false);
  if (required.length > 0) {
    command.hook('preAction', (hooked) => {
      for (const option of required) {
        if (hooked.getOptionValue(option.attributeName()) === undefined) {
          hooked.error(`error: required option '${option.flags}' not specified`, {
            code: 'commander.missingMandatoryOptionValue',
          });
        }
      }
    });
  }
  for (const subcommand of command.commands) reportUnknownOptionsFirst(subcommand);
}
