r"""The ``offcmab`` command line.

Each subcommand lives in its own module under :mod:`validation.commands`
exposing ``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) -> int``.
Exit codes: 0 success, 1 a bound was violated or a strict claim failed, 2 bad
input or usage (one line on stderr naming the field; never a traceback).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import NoReturn

from reference.errors import InputError

#: Subcommand name -> implementing module, in the order ``--help`` lists them.
COMMANDS: dict[str, str] = {
    "validate": "validation.commands.validate",
    "tightness": "validation.commands.tightness",
    "bound": "validation.commands.bound",
    "coefficients": "validation.commands.coefficients",
    "claims": "validation.commands.claims",
    "errata": "validation.commands.errata",
    "solve": "validation.commands.solve",
    "im-oracle": "validation.commands.im_oracle",
    "spread": "validation.commands.spread",
    "reproduce": "validation.commands.reproduce",
    "bench": "validation.commands.bench",
}

EXIT_OK, EXIT_VIOLATION, EXIT_USAGE = 0, 1, 2


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {message} (see --help)\n")
        raise SystemExit(EXIT_USAGE)


def load_command(module_path: str) -> ModuleType | None:
    """Import a subcommand module, or return None if that module does not exist (yet)."""
    try:
        return importlib.import_module(module_path)
    except ModuleNotFoundError as error:
        if error.name == module_path:
            return None
        raise


def build_parser() -> Parser:
    """The full parser, one subparser per available subcommand."""
    parser = Parser(
        prog="offcmab",
        description="Off-CMAB reference implementation and theory checker.",
    )
    from reference import __version__

    parser.add_argument("--version", action="version", version=f"offcmab {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for name, module_path in COMMANDS.items():
        module = load_command(module_path)
        if module is None:
            continue
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``offcmab`` console script; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except InputError as error:
        sys.stderr.write(f"offcmab {args.command}: error: {error}\n")
    except ValueError as error:
        sys.stderr.write(f"offcmab {args.command}: error: {error}\n")
    except OSError as error:
        name = f" {error.filename}" if error.filename else ""
        sys.stderr.write(f"offcmab {args.command}: error: {error.strerror}{name}\n")
    return EXIT_USAGE


if __name__ == "__main__":
    raise SystemExit(main())
