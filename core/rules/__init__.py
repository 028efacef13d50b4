"""The rules of every supported game, as a pure library.

Invariant for the whole package: no I/O, no clock, no asyncio, no environment,
no global random state. Functions take state and an action and return new
state plus events; randomness comes in as an :class:`core.rules.rng.Rng`.
"""
