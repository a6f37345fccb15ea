"""The subcommands behind tutor.cli, one module each."""
