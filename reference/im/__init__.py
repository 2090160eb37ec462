r"""Influence maximization under the independent cascade model (``app:OIM_node``).

Modules: :mod:`~offcmab.reference.im.graph` (CSR digraphs),
:mod:`~offcmab.reference.im.ranges` (CSR segment gathers),
:mod:`~offcmab.reference.im.seeds` (checks of seed sets and seed laws),
:mod:`~offcmab.reference.im.diffusion` (vectorized IC simulation, spread),
:mod:`~offcmab.reference.im.exact` (live-edge enumeration on tiny graphs),
:mod:`~offcmab.reference.im.one_step`
(exact :math:`q_u, p(\bar v), p(\bar v\mid\bar u)`, assumption parameters),
:mod:`~offcmab.reference.im.data` (node- and edge-level offline data),
:mod:`~offcmab.reference.im.oracles` (RR sets, greedy coverage, IMM),
:mod:`~offcmab.reference.im.opim` (OPIM-C, the default IM oracle),
:mod:`~offcmab.reference.im.node_intervals` (CLCB-IM-N's node intervals and edge bounds),
:mod:`~offcmab.reference.im.clcb_im_node` (CLCB-IM-N), :mod:`~offcmab.reference.im.clcb_im_edge`
(edge-level CLCB), :mod:`~offcmab.reference.im.certificate` (the spread certificate),
:mod:`~offcmab.reference.im.generators` (weightings, power-law graphs),
:mod:`~offcmab.reference.im.graph_io` (CSV and JSON Lines files) and
:mod:`~offcmab.reference.im.social` (networkx social graphs, imported lazily).
"""

from offcmab.reference.im.graph import ICGraph

__all__ = ["ICGraph"]
