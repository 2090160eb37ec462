r"""The ``offcmab`` command line.

Each subcommand lives in its own module under :mod:`offcmab.validation.commands`
exposing ``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) -> int``.
Exit codes: 0 success, 1 a bound was violated or a strict claim failed, 2 bad
input or usage (one line on stderr naming the field; never a traceback), or an optional
package that the command needs is not installed (the line names it and its pip extra).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import os
import sys
import warnings
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import NoReturn

from offcmab import __version__
from offcmab.validation import supervisor
from offcmab.validation.extras import MissingExtra

#: Subcommand name -> implementing module, in the order ``--help`` lists them.  Module paths,
#: not modules: a command imports only its own module (start-up time of ``offcmab solve``),
#: and ``offcmab --version`` none at all.
COMMANDS: dict[str, str] = {
    "validate": "offcmab.validation.commands.validate",
    "compare": "offcmab.validation.commands.compare",
    "calibrate": "offcmab.validation.commands.calibrate",
    "mutation": "offcmab.validation.commands.mutation",
    "tightness": "offcmab.validation.commands.tightness",
    "falsify": "offcmab.validation.commands.falsify",
    "bound": "offcmab.validation.commands.bound",
    "coefficients": "offcmab.validation.commands.coefficients",
    "claims": "offcmab.validation.commands.claims",
    "errata": "offcmab.validation.commands.errata",
    "solve": "offcmab.validation.commands.solve",
    "im-oracle": "offcmab.validation.commands.im_oracle",
    "spread": "offcmab.validation.commands.spread",
    "reproduce": "offcmab.validation.commands.reproduce",
    "bench": "offcmab.validation.commands.bench",
    "cite": "offcmab.validation.commands.cite",
}

EXIT_OK, EXIT_USAGE, EXIT_INTERRUPTED = 0, 2, 130


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr and exit code 2."""

    #: The words after this parser's subcommand name, when known (see :func:`build_parser`).
    argv: list[str] | None = None

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {message} (see --help)\n")
        raise SystemExit(EXIT_USAGE)


def load_command(module_path: str) -> ModuleType | None:
    """Import a subcommand module, or return None if that module does not exist (yet)."""
    try:
        # the one lazy table of the CLI (with solve's problems): start-up time of each command
        return importlib.import_module(module_path)
    except ModuleNotFoundError as error:
        if error.name == module_path:
            return None
        raise


def requested(argv: Sequence[str], names: Sequence[str]) -> str | None:
    """The first word of ``argv`` that is one of ``names`` and no option, or None."""
    word = next((word for word in argv if not word.startswith("-")), None)
    return word if word in names else None


def commands_to_build(argv: Sequence[str] | None) -> list[str]:
    """The subcommands whose parsers :func:`build_parser` builds for ``argv``.

    The one ``argv`` names; none for a bare ``offcmab --version`` (which prints and exits
    before any subcommand is looked at); every one otherwise, so that ``--help`` lists them
    and a misspelt name is answered with the choices.
    """
    if argv is None:
        return list(COMMANDS)
    only = requested(argv, list(COMMANDS))
    if only is not None:
        return [only]
    words = [word for word in argv if not word.startswith("-")]  # a misspelt command name
    if not words and "--version" in argv and not {"-h", "--help"} & set(argv):
        return []
    return list(COMMANDS)


def build_parser(argv: Sequence[str] | None = None) -> Parser:
    """The parser: one subparser per available subcommand.

    With ``argv`` naming a subcommand, only that one is built (its module imported): start-up
    time of ``offcmab solve`` is part of its cost (:func:`commands_to_build`).  ``argv`` is
    handed on as ``Parser.argv`` so that a command with sub-subcommands (``solve``) can do
    the same.
    """
    names = commands_to_build(argv)
    only = names[0] if argv is not None and len(names) == 1 else None
    parser = Parser(
        prog="offcmab",
        description="Off-CMAB reference implementation and theory checker.",
    )
    parser.add_argument("--version", action="version", version=f"offcmab {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for name in names:
        module = load_command(COMMANDS[name])
        if module is None:
            continue
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        command.argv = list(argv[argv.index(name) + 1:]) if only is not None and argv else None
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``offcmab`` console script; returns the exit code.

    Ctrl-C ends any command with one line and exit code 130; a reader that stops reading
    (``offcmab claims | head -1``) ends it quietly with exit code 0.  A standard stream the
    caller closed (``offcmab cite RUN >&-``) is opened on the null device first, so the
    command runs and its output goes nowhere; an output that cannot be written (``>
    /dev/full``) is one line on stderr and exit code 2.  Never a traceback.
    """
    open_closed_streams()
    words = list(sys.argv[1:] if argv is None else argv)
    word = next((word for word in words if not word.startswith("-")), "")
    if argv is None and supervisor.wanted(words):  # a child process group runs it
        return supervisor.supervised(lambda: main(words), word)
    command = " ".join(filter(None, ("offcmab", word)))
    code = EXIT_USAGE
    try:
        code = _main(words, console=argv is None)
        sys.stdout.flush()  # here, not at the interpreter's exit, where it could only warn
    except KeyboardInterrupt:
        sys.stderr.write(f"{command}: interrupted\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # Whoever read our output is gone: send what is still buffered nowhere, so that the
        # interpreter's final flush does not raise again, and stop without a word.
        discard_stdout()
        return EXIT_OK
    except OSError as error:  # the output itself cannot be written (a full disk)
        discard_stdout()
        if code != EXIT_USAGE:  # else the command's own error line said it already
            sys.stderr.write(f"{command}: error: cannot write the output: "
                             f"{error.strerror or error}\n")
        return EXIT_USAGE
    return code


#: The standard streams by file descriptor: name in :mod:`sys` and how each is opened.
STREAMS = ((0, "stdin", os.O_RDONLY, "r"), (1, "stdout", os.O_WRONLY, "w"),
           (2, "stderr", os.O_WRONLY, "w"))


def open_closed_streams() -> None:
    """Open every standard stream the caller closed on the null device.

    With descriptor 1 closed, the first file a command opens would get it, and whatever a
    worker process or user code prints would land in that file (a trial log, a report).
    """
    for descriptor, name, flags, mode in STREAMS:
        try:
            os.fstat(descriptor)
            continue
        except OSError:
            pass
        null = os.open(os.devnull, flags)
        if null != descriptor:
            os.dup2(null, descriptor)
            os.close(null)
        # the stream lives as long as the process, as the interpreter's own ones do
        setattr(sys, name, open(descriptor, mode, encoding="utf-8",  # noqa: SIM115
                                closefd=False))


def discard_stdout() -> None:
    """Point standard output at the null device (what is still buffered goes nowhere)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    finally:
        os.close(devnull)


@contextlib.contextmanager
def collector_paused(freeze: bool) -> Iterator[None]:
    """Python's cyclic garbage collector is off inside the block (unless it was off before);
    with ``freeze``, what exists at its end is left out of every later collection.

    Loading a command's modules (numpy's among them) makes hundreds of thousands of
    long-lived objects and next to no garbage.  The collector, triggered every few hundred
    allocations, would scan them again and again while they load, and then in each full
    collection while the command runs: several milliseconds of a short command.  Freezing
    is for the console script only, whose process ends with the command; a program that
    calls :func:`main` keeps its collector as it was.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if was_on:
            gc.enable()


def _main(words: list[str], console: bool = False) -> int:
    with collector_paused(freeze=console):  # the command's imports
        parser = build_parser(words)
    args = parser.parse_args(words)
    args.argv = words  # what the command was given, for the provenance of its report
    try:
        with warnings.catch_warnings():
            # a numeric warning (overflow, 0/0) means a wrong number would be printed: stop
            warnings.simplefilter("error")
            return int(args.run(args))
    except MemoryError:
        sys.stderr.write(f"offcmab {args.command}: error: the input needs more memory than "
                         "this machine has\n")
    except (ValueError, MissingExtra) as error:  # InputError is a ValueError
        sys.stderr.write(f"offcmab {args.command}: error: {error}\n")
    except BrokenPipeError:
        raise  # not an error of the input: main() ends quietly
    except OSError as error:

        name = f" {error.filename}" if error.filename else ""
        reason = error.strerror or str(error) or type(error).__name__  # never "None"
        sys.stderr.write(f"offcmab {args.command}: error: {reason}{name}\n")
    return EXIT_USAGE


if __name__ == "__main__":
    raise SystemExit(main())
