r"""The environment of every timed child process: compiled files, as an installed package has.

``pip install`` compiles a package's modules, and an interpreter caches the compiled file of
a module it imports; numpy's are compiled when it is installed.  Where
``PYTHONDONTWRITEBYTECODE`` is set, or the package folder cannot be written, every child
would compile our modules from source again while numpy's are read compiled, and start-up
would measure the compiler.  The children therefore keep their compiled files in a folder of
the benchmark's own (``PYTHONPYCACHEPREFIX``), written by the first, untimed run: every
child, ours and the reference, imports from the same cache, and nothing is written beside
the installed sources.
"""

from __future__ import annotations

import os
from pathlib import Path


def compiled_env(cache: Path, **extra: str) -> dict[str, str]:
    """This process's environment with a compiled-file cache at ``cache`` for the children.

    ``extra`` adds variables (a child's output file, for example).
    """
    env = {key: value for key, value in os.environ.items()
           if key != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPYCACHEPREFIX": str(cache), **extra}
