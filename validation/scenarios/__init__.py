r"""Validation scenarios: one module per family of bound ids.

Each module exposes ``SCENARIOS: dict[str, Scenario]`` (see
:mod:`offcmab.validation.runner.scenario`).  ``REGISTRY`` maps every bound id checked by
``offcmab validate`` to the module holding its scenario, in report order.
"""

#: Bound id -> scenario module.
REGISTRY: dict[str, str] = {
    "thm1-inf": "offcmab.validation.scenarios.thm1",
    "thm1-one": "offcmab.validation.scenarios.thm1",
    "thm2-lower": "offcmab.validation.scenarios.thm2_lower",
    "cor1-cascade": "offcmab.validation.scenarios.cascade",
    "lem-llm-std": "offcmab.validation.scenarios.llm",
    "thm3-llm": "offcmab.validation.scenarios.llm",
    "thm-llm-online": "offcmab.validation.scenarios.llm_online",
    "thm4-im": "offcmab.validation.scenarios.im",
}
