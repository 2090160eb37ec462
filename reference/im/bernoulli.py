r"""Random bits for the IC samplers: independent Bernoulli positions and 16-bit coins.

* :func:`bernoulli_positions` returns which of ``n`` positions are included, each
  independently with probability ``q``, at a cost proportional to the included ones when
  ``q`` is small: the gaps between included positions are geometric.
* :func:`random_uint16` returns uniform 16-bit integers, four per 64-bit raw output of the
  bit generator when it has 64 random bits per output.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from offcmab.reference.dataset import IntArray

#: Bit generators whose raw outputs carry 64 uniform bits (``MT19937`` carries 32).
_WIDE_GENERATORS = (np.random.PCG64, np.random.PCG64DXSM, np.random.SFC64, np.random.Philox)


def bernoulli_positions(n: int, q: float, rng: np.random.Generator) -> IntArray:
    r"""Sorted positions in ``[0, n)``, each included independently with probability ``q``.

    For ``q < 1/4`` the gaps are geometric: :math:`\lfloor E / (-\ln(1-q))\rfloor` skipped
    positions before each included one, with :math:`E` standard exponential (so
    :math:`P(\text{gap} \ge j) = P(E \ge -j\ln(1-q)) = (1-q)^j`), drawn in a few blocks sized
    from the expected count.  Otherwise one uniform per position.
    """
    if n <= 0 or q <= 0.0:
        return np.zeros(0, dtype=np.int64)
    if q >= 0.25:
        return np.flatnonzero(rng.random(n) < q).astype(np.int64)
    scale = -1.0 / np.log1p(-q)
    parts, last = [], -1
    while last < n:
        block = int(n * q + 4.0 * np.sqrt(n * q) + 16)
        skipped = np.minimum(rng.standard_exponential(block) * scale, n)
        position = last + np.cumsum(skipped.astype(np.int64) + 1)
        parts.append(position)
        last = int(position[-1])
    position = np.concatenate(parts) if len(parts) > 1 else parts[0]
    return position[: np.searchsorted(position, n)]


def random_uint16(rng: np.random.Generator, size: int) -> npt.NDArray[np.uint16]:
    """``size`` independent uniform 16-bit integers.

    Where the bit generator's raw outputs are 64 uniform bits, each output gives four draws
    (several times cheaper than :meth:`numpy.random.Generator.integers`); otherwise
    ``integers`` draws them.
    """
    if isinstance(rng.bit_generator, _WIDE_GENERATORS):
        return rng.bit_generator.random_raw((size + 3) // 4).view(np.uint16)[:size]
    return rng.integers(0, 1 << 16, size=size, dtype=np.uint16)
