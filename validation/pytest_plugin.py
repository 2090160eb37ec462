r"""pytest plugin: the fixture ``offcmab_check`` checks your algorithm against a bound.

Installed with offcmab (entry point ``pytest11``), so in your own tests::

    def test_my_cascade_keeps_corollary_1(offcmab_check):
        offcmab_check(my_cascade, "cor1-cascade")

The call fails the test, listing the violating rows (instance, n, bound, gap
quantile, violations), when :func:`offcmab.validation.check` reports a violation, and
returns the :class:`~offcmab.validation.api.CheckReport` otherwise.  It runs what
``offcmab validate --algorithm FILE.py:FUNCTION --only ID`` runs: the profile is
``default`` (with the regression corpus) unless ``--offcmab-profile`` (command line) or
``offcmab_profile`` (ini file) says otherwise (``ci`` sizes the run for CI minutes);
keyword arguments of the call (``profile``, ``seed``, ``jobs``, ``backend``, ``out``,
``junit_xml``, ``trial_timeout``, ``overwrite``) override both; ``theorem="FILE.py:NAME"``
adds a theorem of your own (as ``--theorem``); ``junit_xml=FILE`` also writes
the rows as JUnit XML (an existing ``out`` run or JUnit file only with ``overwrite=True``).
A run in which no row could fail for the function (every row vacuous or
``n/a``) fails the test too, unless the call passes ``allow_unchecked=True``, and so does a
function that fails to run (raises, exits, hangs past ``trial_timeout``, writes into its
input).  Without the
installed entry point, load it with ``-p offcmab.validation.pytest_plugin``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from offcmab.validation.parts.spec import PROFILES


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--offcmab-profile`` and the ini key ``offcmab_profile``."""
    group = parser.getgroup("offcmab", "offcmab: check algorithms against the paper's bounds")
    group.addoption("--offcmab-profile", choices=list(PROFILES), default=None,
                    help="validate profile the offcmab_check fixture runs (default: default)")
    parser.addini("offcmab_profile", "validate profile of the offcmab_check fixture "
                  f"({', '.join(PROFILES)})", default="default")


def configured_profile(config: pytest.Config) -> str:
    """The profile chosen on the command line, else in the ini file, else ``default``."""
    profile = (config.getoption("offcmab_profile") or config.getini("offcmab_profile")
               or "default")
    if profile not in PROFILES:
        raise pytest.UsageError(f"offcmab_profile: must be one of {', '.join(PROFILES)}, "
                                f"got {profile!r}")
    return str(profile)


@pytest.fixture
def offcmab_check(request: pytest.FixtureRequest) -> Callable[..., Any]:
    """``offcmab_check(function, bound_id, **options)``: fail the test on a violated bound."""
    # imported on first use: every pytest session that has offcmab installed loads this plugin
    from offcmab.validation.api import AlgorithmFailed, NothingChecked, check

    profile = configured_profile(request.config)

    def run(function: Callable[..., Any] | str, bound_id: str, **options: Any) -> Any:
        options.setdefault("profile", profile)
        try:
            report = check(function, bound_id, via="pytest fixture offcmab_check", **options)
        except (AlgorithmFailed, NothingChecked) as stopped:
            pytest.fail(str(stopped), pytrace=False)
        if not report.passed:
            pytest.fail(report.message(), pytrace=False)
        return report

    return run
