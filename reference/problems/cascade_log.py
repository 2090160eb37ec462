r"""The cascade feedback rule, checked on a logged dataset (kept apart for start-up speed).

``offcmab solve cascade`` needs only this check from :mod:`offcmab.reference.problems.cascade`;
that module re-exports it.
"""

from __future__ import annotations

import numpy as np

from offcmab.reference.dataset import OfflineDataset
from offcmab.reference.errors import InputError

#: Samples per block when :func:`check_cascade_log` gathers the last items of large logs.
_BLOCK = 1 << 18


def check_cascade_log(dataset: OfflineDataset) -> OfflineDataset:
    r"""Return ``dataset`` after checking it is cascade feedback on ranked lists.

    The user scans the list top down and stops at the first click, so in every sample
    no item before the last triggered one was clicked (outcome 0) and, when the lists are
    recorded, the triggered items are a prefix of the list, the whole list unless the last
    one was clicked.  Checked by array operations on the CSR layout.

    Raises
    ------
    InputError
        Naming the field and the first offending sample (``InputError.sample``).
    """
    offsets = dataset.triggered_offsets
    empty = offsets[1:] == offsets[:-1]
    if empty.any():
        raise InputError("triggered", "is empty: the first item of a list is always examined",
                         sample=int(np.argmax(empty)))
    del empty
    # Clicks only on last items: as many nonzero outcomes in all as on the last items.  Two
    # counting passes, the last items gathered in blocks (small temporaries on large logs);
    # the mask of early clicks is built only to name the sample.
    last_clicks = sum(np.count_nonzero(dataset.outcomes[offsets[start + 1:start + _BLOCK + 1] - 1])
                      for start in range(0, dataset.n, _BLOCK))
    if np.count_nonzero(dataset.outcomes) != last_clicks:
        clicked_early = dataset.outcomes != 0
        clicked_early[offsets[1:] - 1] = False
        t = int(np.searchsorted(offsets, np.argmax(clicked_early), side="right") - 1)
        raise InputError("outcomes", "a click before the last triggered item: cascade feedback "
                         "stops at the first click", sample=t)
    if dataset.actions is None or dataset.action_offsets is None:
        return dataset
    lengths, last = np.diff(offsets), offsets[1:] - 1
    list_lengths = np.diff(dataset.action_offsets)
    stopped_early = (lengths < list_lengths) & (dataset.outcomes[last] == 0)
    if np.any(lengths > list_lengths) or stopped_early.any():
        t = int(np.argmax((lengths > list_lengths) | stopped_early))
        raise InputError("triggered", "must be the list up to the first click (all of it when "
                         "nothing was clicked)", sample=t)
    # entry e of sample t should be actions[e - offsets[t] + action_offsets[t]]
    index = np.repeat(dataset.action_offsets[:-1] - offsets[:-1], lengths)
    index += np.arange(offsets[-1])
    mismatch = dataset.actions[index] != dataset.triggered
    if mismatch.any():
        t = int(np.searchsorted(offsets, np.argmax(mismatch), side="right") - 1)
        raise InputError("triggered", "must be a prefix of the ranked list (action)", sample=t)
    return dataset
