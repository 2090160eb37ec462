r"""``offcmab tightness``: search a theorem's instances for the one where its bound is tightest.

Modules:

``spaces``
    Per bound id, a box of parameters decoded into the scenario's instances.
``search``
    The objective (the validate row of the decoded instance) and differential evolution.
``files``
    The saved-instance JSON: written by the search, read strictly by ``validate --instances``.
``corpus``
    The tightest instance per bound id, kept in ``validation/corpus`` and run by validate.
"""
