r"""Scenarios: the instances, trials and bound evaluations behind the theorem records.

One module per family of problems (CMAB-T instances, cascades, LLM caches offline and
online, influence maximization, the lower bound's pair), each with the scenario class its
theorems instantiate (:mod:`offcmab.validation.theorems`), and the trap instances shared
by several theorems (:mod:`~offcmab.validation.scenarios.traps`).
"""
