"""Ayo's PettingZoo environments (``ayo``), as a PettingZoo family's module holds
them: ``env``, ``raw_env``, ``parallel_env`` (:mod:`parlour.envs`)."""

from parlour.envs import makers

env, raw_env, parallel_env = makers("ayo")
