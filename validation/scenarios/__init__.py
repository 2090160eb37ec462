r"""Validation scenarios: one module per family of bound ids.

Each module exposes ``SCENARIOS: dict[str, Scenario]`` (see
:mod:`validation.runner.scenario`).  ``REGISTRY`` maps every bound id checked by
``offcmab validate`` to the module holding its scenario, in report order.
"""

#: Bound id -> scenario module.
REGISTRY: dict[str, str] = {
    "thm1-inf": "validation.scenarios.thm1",
    "thm1-one": "validation.scenarios.thm1",
    "thm2-lower": "validation.scenarios.thm2_lower",
    "cor1-cascade": "validation.scenarios.cascade",
    "lem-llm-std": "validation.scenarios.llm",
    "thm3-llm": "validation.scenarios.llm",
    "thm-llm-online": "validation.scenarios.llm_online",
    "thm4-im": "validation.scenarios.im",
}
