r"""Event rows of ``offcmab validate``: the proofs' high-probability events, checked directly.

:mod:`~offcmab.validation.events.core` runs a case (the type,
:class:`~offcmab.validation.parts.event_case.EventCase`, is one of a theorem's parts) and
gives its row the exact binomial verdict; :mod:`~offcmab.validation.events.collect` gathers
the cases of the theorems a run checks and runs them.  The cases themselves, one module per
family, are listed by the theorem records of :mod:`offcmab.validation.theorems`:

``arms``
    :math:`\mathcal E_{\text{arm}}` of CLCB, CLCB-Cascade and edge-level IM.
``llm``
    The cost and frequency events of CLCB-LLM-C in both variants; the streaming cache
    lemma of CUCB-LLM-S (corrected, and as printed: a known failure), its online cost
    event and the per-round LCB steps of its regret proof.
``im_node``
    The interval events of CLCB-IM-N on :math:`q_u`, :math:`p(\bar v)`,
    :math:`p(\bar v\mid\bar u)`, the resulting edge LCB and the oracle step.
``oracles``
    Top-k exactness and IMM's approximation promise against exact optima.

The arm, cost and online LCB events also run on instances with hundreds of arms whose
means lie near 1/2, each arm observed often (``im-edge-wide``, ``cascade-wide``,
``cache-wide``, ``stream-wide``): each event is a union over every arm, and a radius half as
wide as the proof needs, or one without the union bound, shows only there.

Event rows apply to algorithms that expose their confidence bounds: each case takes
the algorithm as a callable and reads the statistics from what it returns
(:mod:`~offcmab.validation.events.subject`).  The reference is one such callable, the
function its theorem's signature names, called exactly as a user's algorithm is: no row
computes the reference's statistics by another route.
"""
