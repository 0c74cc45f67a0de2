"""Rates a server allows: a token bucket, and one bucket per client address.

A connection's messages, the games an address creates, the hints it asks for and the files
it uploads each go through a bucket: ``burst`` at once, then ``rate`` a second.  A request
over the rate is refused with the seconds until one more is allowed (an HTTP
``Retry-After``), so that one client cannot fill the server's tables or keep its engines
busy.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

GAMES = (1 / 3, 20.0)
"""New games an address may create: 20 at once, then one every 3 seconds."""
HINTS = (1 / 5, 5.0)
"""Hints an address may ask for: 5 at once, then one every 5 seconds (each is a second of
the engine's search)."""
REVIEWS = (1 / 20, 3.0)
"""Reviews of an uploaded file an address may ask for: 3 at once, then one every 20
seconds (each is up to half a minute of the engine's search)."""
UPLOADS = (1.0, 10.0)
"""Files an address may upload to replay: 10 at once, then one a second (each is read
and replayed by the rules, a few milliseconds a move)."""
MAX_ADDRESSES = 10_000
"""Addresses whose buckets are kept at once; the oldest is dropped for a new one (a
forgotten address starts again with a full bucket, which only helps it a little)."""


@dataclass(eq=False)
class Bucket:
    """``burst`` requests at once, refilled at ``rate`` a second."""

    rate: float
    burst: float
    tokens: float = -1.0
    checked: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = self.burst

    def take(self) -> float:
        """0 when one more request is within the rate (and counted), else the seconds
        until one will be."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.checked) * self.rate)
        self.checked = now
        if self.tokens < 1:
            return (1 - self.tokens) / self.rate
        self.tokens -= 1
        return 0.0


@dataclass(eq=False)
class PerAddress:
    """A bucket for each client address (``rate`` and ``burst`` as :class:`Bucket`'s)."""

    rate: float
    burst: float
    buckets: dict[str, Bucket] = field(default_factory=dict)

    def take(self, address: str) -> float:
        """0 when ``address`` may make one more request now, else the seconds to wait."""
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= MAX_ADDRESSES:
                del self.buckets[next(iter(self.buckets))]
            bucket = self.buckets[address] = Bucket(self.rate, self.burst)
        return bucket.take()


def retry_after(seconds: float) -> int:
    """Whole seconds to wait, as ``Retry-After`` says it (at least 1)."""
    return max(1, math.ceil(seconds))
