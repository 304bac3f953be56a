"""The commands, a module each: `add_arguments(parser)` adds its arguments, `run(args)` runs it and
returns the exit code. cli.COMMANDS names them; a command imports only the stages it uses."""
