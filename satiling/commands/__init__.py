"""Family-specific subcommands of the CLI; each module offers register(subparsers)."""
