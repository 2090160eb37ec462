r"""Comparing a scenario's route with the evaluator's: agreement or an internal error."""

from __future__ import annotations

#: Largest difference allowed between two exact routes (float rounding only).
TOLERANCE = 1e-9


class InternalError(ValueError):
    """The checker contradicts itself: two exact routes disagree, or a gap is impossible.

    A ``ValueError``, so the command line reports it in one line and exits 2: such a run
    proves nothing about the algorithm, neither a pass nor a failure.  ``where`` names
    the bound id, instance, n (and trial) once the runner knows them (:meth:`at`).
    """

    def __init__(self, detail: str, where: str = "") -> None:
        self.detail, self.where = detail, where
        super().__init__(f"internal error{f' in {where}' if where else ''}: {detail}")

    def __reduce__(self) -> tuple[type[InternalError], tuple[str, str]]:
        return type(self), (self.detail, self.where)  # rebuilt unchanged in another process

    def at(self, where: str) -> InternalError:
        """The same error, located."""
        return InternalError(self.detail, where)


def agree(what: str, scenario: float, evaluator: float) -> None:
    """Raise :class:`InternalError` when ``scenario`` and ``evaluator`` differ beyond rounding."""
    if not abs(float(scenario) - float(evaluator)) <= TOLERANCE:
        raise InternalError(f"{what}: the scenario computes {float(scenario):.12g}, the "
                            f"independent evaluator {float(evaluator):.12g}")


def within(gap: float, error: float, low: float, high: float) -> bool:
    """Whether a gap (estimated within ``error``) can lie in ``[low, high]``, up to rounding."""
    return gap + error >= low - TOLERANCE and gap - error <= high + TOLERANCE
