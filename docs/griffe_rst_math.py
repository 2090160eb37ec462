r"""Griffe extension: rewrite each loaded docstring's reStructuredText math as Markdown math.

The rewrite itself lives in ``docgen.rst_math`` (standard library only); this module adds
the griffe hook, so only the docs build needs griffe.  Source files are not touched.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import griffe

sys.path.insert(0, str(Path(__file__).resolve().parent))
from docgen.rst_math import convert


class RstMath(griffe.Extension):
    """Rewrite ``:math:`` roles and ``.. math::`` blocks of every loaded docstring."""

    def on_instance(self, *, node: Any, obj: griffe.Object, agent: Any, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = convert(obj.docstring.value)
