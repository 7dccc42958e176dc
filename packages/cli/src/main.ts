import { type Command, type CommandIo, UsageError } from './command';
import { coupCommand } from './commands/coup';
import { oddsCommand } from './commands/odds';
import { rngSampleCommand } from './commands/rng-sample';
import { shoeCommand } from './commands/shoe';
import { simulateCommand } from './commands/simulate';
import { verifyCommand } from './commands/verify';

/** The sub-commands. Add one by writing a module under ./commands and listing it here. */
export const commands: Record<string, Command> = {
  [oddsCommand.name]: oddsCommand,
  [coupCommand.name]: coupCommand,
  [simulateCommand.name]: simulateCommand,
  [shoeCommand.name]: shoeCommand,
  [verifyCommand.name]: verifyCommand,
  [rngSampleCommand.name]: rngSampleCommand,
};

const processIo: CommandIo = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin };

const globalUsage = (): string =>
  [
    'usage: baccarat <command> [options]',
    '',
    'Punto y Banca (baccarat): exact odds, single coups, shoe simulation.',
    '',
    'commands:',
    ...Object.values(commands).map((c) => `  ${c.name.padEnd(10)} ${c.summary}`),
    '',
    'Run `baccarat <command> --help` for its options.',
    '',
  ].join('\n');

export async function main(argv: string[], io: CommandIo = processIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) {
    io.stderr.write(globalUsage());
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(globalUsage());
    return 0;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    io.stderr.write(`baccarat: unknown command "${name}"\n\n${globalUsage()}`);
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(`${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`baccarat ${command.name}: ${error.message}\n\n${command.usage}\n`);
      return 2;
    }
    io.stderr.write(`baccarat ${command.name}: ${(error as Error).message ?? String(error)}\n`);
    return 1;
  }
}
