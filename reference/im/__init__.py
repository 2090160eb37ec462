r"""Influence maximization under the independent cascade model (``app:OIM_node``).

Modules: :mod:`~reference.im.graph` (CSR digraphs), :mod:`~reference.im.diffusion` (vectorized IC
simulation, spread), :mod:`~reference.im.exact` (live-edge enumeration on tiny graphs),
:mod:`~reference.im.one_step` (exact :math:`q_u, p(\bar v), p(\bar v\mid\bar u)`, assumption
parameters), :mod:`~reference.im.data` (node- and edge-level offline data),
:mod:`~reference.im.oracles` (IMM, greedy, brute force helpers), :mod:`~reference.im.clcb_im_node`
(CLCB-IM-N), :mod:`~reference.im.clcb_im_edge` (edge-level CLCB), :mod:`~reference.im.generators`
(weightings, power-law graphs), :mod:`~reference.im.graph_io` (CSV and JSON Lines files) and
:mod:`~reference.im.social` (networkx social graphs, imported lazily).
"""

from reference.im.graph import ICGraph

__all__ = ["ICGraph"]
