"""Hypothesis profiles: ``long`` (``--hypothesis-profile=long``, or the environment variable
``HYPOTHESIS_PROFILE=long``) runs 40 times the default examples: 100,000 inputs for the
fuzz suite of tests/test_fuzz.py, whose tests scale with ``max_examples``."""

import os

from hypothesis import settings

settings.register_profile("long", max_examples=4_000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
