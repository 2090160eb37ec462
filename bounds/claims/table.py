"""Placeholder."""

from bounds.claims.record import Claim

CLAIMS: tuple[Claim, ...] = ()
