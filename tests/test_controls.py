"""Negative controls: the wrappers reproduce the reference at the reference's settings,
and each control's one change is real (it resolves by name, it returns another action
than the reference on its trap instance: see ``test_controls_differ_on_traps``)."""

from __future__ import annotations

import numpy as np
import pytest

from offcmab.reference.clcb import clcb
from offcmab.reference.clcb_llm import clcb_llm
from offcmab.reference.cucb_llm_stream import cucb_llm_stream
from offcmab.reference.im.clcb_im_node import clcb_im_node
from offcmab.reference.problems.llm_cache import sample_log
from offcmab.validation.controls import cmab, im, llm, stream
from offcmab.validation.parts.spec import PROFILES
from offcmab.validation.parts.theorem import find
from offcmab.validation.runner.power import broken
from offcmab.validation.scenarios import cmabt, llm_instances
from offcmab.validation.scenarios import im as im_scenario
from offcmab.validation.scenarios.llm_online import printed_cache, replay
from offcmab.validation.scenarios.thm1 import named
from offcmab.validation.subjects import resolve
from offcmab.validation.theorems import THEOREMS


def test_every_theorem_has_the_generic_controls() -> None:
    for theorem in THEOREMS:
        assert {"no-pessimism", "optimism", "radius-0.1", "ignores-data"} <= set(
            theorem.controls), theorem.id
        for name, control in theorem.controls.items():
            assert broken(control), name  # the docstring names what is broken


def test_unknown_control_names_the_field() -> None:
    with pytest.raises(ValueError, match="algorithm: no control 'nope' for thm1-inf"):
        resolve("control:nope", find(THEOREMS, "thm1-inf"))


@pytest.mark.parametrize("instance", named(PROFILES["quick"]), ids=lambda i: i.name)
def test_clcb_index_at_scale_one_is_the_lcb(instance: object) -> None:
    setup = cmabt.build(instance.params)  # type: ignore[attr-defined]
    data = setup.law.sample(1000, np.random.default_rng(3))
    _, index = cmab.scaled_index(data, 0.05, 1.0)
    assert np.array_equal(index, clcb(data, setup.oracle, 0.05).lcb)


@pytest.mark.parametrize("variant", ["improved", "standard"])
@pytest.mark.parametrize("params", [llm_instances.small_ood(), llm_instances.zipf_random()])
def test_llm_rescored_at_scale_one_is_the_reference(variant: str, params: dict) -> None:
    setup = llm_instances.build(params)
    log = sample_log(setup.problem, setup.law, 2000, np.random.default_rng(4), params["noise"])
    ref = clcb_llm(log, params["k"], 0.05, variant)  # type: ignore[arg-type]
    mine = llm.rescored(log, params["k"], 0.05, variant)  # type: ignore[arg-type]
    assert np.array_equal(ref.cache, mine.cache)
    assert np.array_equal(ref.scores, mine.scores)


def test_im_intervals_at_scale_one_are_the_reference() -> None:
    problem = im_scenario.build(im_scenario.star_and_chain())
    cascades = problem.sample(200000, np.random.default_rng(5))
    ref = clcb_im_node(problem.graph, cascades, im_scenario.exact_oracle(problem.graph, 2), 0.05)
    mine = im.interval_edges(problem.graph, cascades, 0.05, 1.0, 1.0)
    assert np.any(ref.lcb > 0)  # a non-trivial comparison
    assert np.allclose(ref.lcb, mine.lcb, rtol=0, atol=1e-15)


def test_stream_radius_scale_one_is_the_printed_algorithm() -> None:
    problem = llm_instances.build(llm_instances.small_ood()).problem
    ref = cucb_llm_stream(problem, 300, np.random.default_rng(6))
    assert ref.caches is not None
    mine = replay(lambda m, k, delta: stream.scaled_cache(m, k, 1.0), ref.queries, ref.costs,
                  problem.m, problem.k, 0.05)
    assert np.array_equal(ref.caches, mine.caches) and np.array_equal(ref.lcbs, mine.lcbs)
    printed = replay(printed_cache, ref.queries, ref.costs, problem.m, problem.k, 0.05)
    assert np.array_equal(printed.caches, mine.caches)


def test_stream_controls_expose_their_own_lcbs() -> None:
    """The stream controls are learners whose ``lcb`` the runner records: after each of their
    own misses it is the running mean cost minus s times the printed radius (clipped at 0),
    s = 0 for no-pessimism and -1 for optimism; ignores-data's are 0 from round 2 on."""
    problem = llm_instances.build(llm_instances.small_ood()).problem
    ref = cucb_llm_stream(problem, 200, np.random.default_rng(7))
    rounds = np.arange(1, 201)[:, None]
    for name, scale in (("no-pessimism", 0.0), ("optimism", -1.0), ("ignores-data", None)):
        run = replay(stream.STREAM_CONTROLS[name], ref.queries, ref.costs, problem.m,
                     problem.k, 0.05)
        mine = np.asarray(run.lcbs)
        if scale is None:
            assert np.all(mine[1:] == 0.0)
            continue
        misses = np.flatnonzero(~run.hits)
        observed = np.zeros((200, problem.m))
        observed[misses, ref.queries[misses]] = 1.0
        counts = np.cumsum(observed, axis=0)
        safe = np.where(counts > 0, counts, 1.0)
        means = np.cumsum(observed * ref.costs[:, None], axis=0) / safe
        want = np.where(counts > 0, np.maximum(
            means - scale * np.sqrt(6.0 * np.log(rounds) / safe), 0.0), 0.0)
        np.testing.assert_allclose(mine[misses], want[misses], rtol=0, atol=1e-12)
        assert not np.allclose(mine, np.asarray(ref.lcbs))  # not the reference's LCBs


def test_control_specs_resolve_to_the_theorems_controls() -> None:
    for theorem in THEOREMS:
        for name, control in theorem.controls.items():
            assert resolve(f"control:{name}", theorem) is control
