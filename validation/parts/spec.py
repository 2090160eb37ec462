r"""Pure data describing a validation sweep: profiles, instances and trial keys.

A sweep is a list of (bound id, instance, n, trial) keys.  Nothing here runs code
from user input: instances are plain parameters that a scenario turns into a
problem and a data law.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

ProfileName = Literal["quick", "default", "full", "ci"]

#: Variants of a bound (see ``offcmab.bounds.registry``): as printed, and what the proof yields.
VARIANTS: tuple[str, ...] = ("stated", "proved")

#: Run-level false-alarm budget: the probability that a correct algorithm is flagged
#: anywhere in one run is at most this.  It is split equally (Bonferroni) over the rows
#: *with power*, the rows that can fail: upper-bound rows whose bound lies below the
#: largest gap the instance allows, lower-bound rows, CLCB-risk rows and slope rows.
#: Vacuous rows (the bound is at least the largest possible gap) and ``note`` rows can
#: never fail, so they get no share; the shares sum to the budget exactly.  One false
#: alarm in a thousand CI runs is what a CI user can live with, and it buys power: at
#: 1e-6 a row of 20 trials flagged only exceedance rates above about 0.6.
FALSE_ALARM_BUDGET = 1e-3


@dataclass(frozen=True)
class Profile:
    r"""How much work a run does.

    Attributes
    ----------
    name
        ``quick`` (the test suite's smoke run), ``default``, ``full`` (paper scale) or
        ``ci`` (the rows that flag the most controls per second, for CI minutes).
    trials
        Independent datasets drawn per (instance, n).
        The least number; rows with power get more (see ``detect``).
    generated
        Number of randomly generated instances per bound id, beside the named ones.
    detect
        Detection target: every upper-bound row with power gets enough trials to flag,
        with probability 0.9, an exceedance probability of ``detect`` times its
        failure probability :math:`\delta` (exact binomial, at the row's share of the
        budget; :func:`offcmab.validation.parts.verdict.trials_to_detect`).
    max_trials
        Cap on the trials of one (instance, n); a row that needs more says so.
    scenarios, events
        The profiles whose instances and grids, and whose event rows (their sizes and
        trials), this one runs (``None``: its own).
    selective
        Keep only the instances with the most power per second: each theorem's trap
        instances (unless its traps cannot fail) and its generated instances at sizes up to
        ``generated_max_n`` (:func:`offcmab.validation.runner.plan.profile_instances`);
        every event row stays.
    generated_max_n
        Largest ``n`` at which a selective profile runs a generated instance.
    """

    name: ProfileName
    trials: int
    generated: int
    detect: float = 4.0
    max_trials: int = 2000
    scenarios: ProfileName | None = None
    events: ProfileName | None = None
    selective: bool = False
    generated_max_n: int = 5000

    @property
    def base(self) -> Profile:
        """This profile under the name whose instances and grids the scenarios look up."""
        return replace(self, name=self.scenarios or self.name, scenarios=None, events=None)

    @property
    def event_base(self) -> Profile:
        """This profile under the name whose event rows (sizes, trials) it runs."""
        return replace(self, name=self.events or self.name, scenarios=None, events=None)


PROFILES: dict[str, Profile] = {
    "quick": Profile("quick", trials=10, generated=2, detect=4.0, max_trials=400),
    "default": Profile("default", trials=20, generated=3, detect=4.0, max_trials=2000),
    "full": Profile("full", trials=20, generated=6, detect=2.0, max_trials=20000),
    # the default profile's traps and generated instances (up to n = 5000), at most 400
    # trials per (instance, n), the quick profile's event rows, no named instance: they
    # flag every control the default profile flags (see docs/validation-in-ci.md)
    "ci": Profile("ci", trials=20, generated=3, detect=4.0, max_trials=400,
                  scenarios="default", events="quick", selective=True),
}


@dataclass(frozen=True)
class Instance:
    r"""One instance of a scenario, as plain JSON-able data.

    Attributes
    ----------
    name
        Unique within its bound id; part of every trial's seed key.
    params
        What the scenario needs to build the problem and the data law.
    delta
        Failure probability of the bound being checked.
    n_grid
        Dataset sizes at which the bound is checked.
    origin
        ``paper`` (an experiment of the paper), ``named`` (a hand-picked case) or
        ``generated`` (drawn by hypothesis from the run seed).
    """

    name: str
    params: dict[str, Any]
    delta: float
    n_grid: tuple[int, ...]
    origin: str = "named"
    note: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if len(set(self.n_grid)) != len(self.n_grid) or not self.n_grid:
            raise ValueError(f"n_grid of {self.name}: must list distinct sizes, "
                             f"got {self.n_grid}")


@dataclass(frozen=True, order=True)
class TrialKey:
    """Identifies one trial: the algorithm run (``subject``) and where.

    The seed is derived from the first four fields only, never from ``subject``, so
    every subject sees the same dataset on the same (bound id, instance, n, trial).
    """

    bound_id: str
    instance: str
    n: int
    trial: int
    subject: str = "reference"

    def text(self) -> str:
        """The key as stored in the trial log (the subject appended unless it is the reference)."""
        base = f"{self.bound_id}|{self.instance}|{self.n}|{self.trial}"
        return base if self.subject == "reference" else f"{base}|{self.subject}"
