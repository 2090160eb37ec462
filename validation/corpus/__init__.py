"""The regression corpus of ``offcmab tightness`` (JSON files, see validation.tightness.corpus)."""
