"""Who may use what (issue 19): optional API keys for jobs and the cache's
administration (``SMOKEJUMPER_API_KEYS``), and a per-client rate limit on
searches and jobs (``SMOKEJUMPER_RATE_LIMIT``, requests a minute) answering
429 with ``Retry-After``. Quick routes, the page and /healthz stay open."""

from __future__ import annotations

import collections
import hmac
import math
import threading
import time

from fastapi import HTTPException, Request

# Clients remembered by the rate limit; the longest idle are forgotten first
# (a forgotten client starts again with a full allowance).
_MAX_CLIENTS = 10_000


class Guard:
    def __init__(self, api_keys: tuple[str, ...], rate_per_minute: float) -> None:
        self._keys = tuple(k.encode() for k in api_keys)
        self._rate = rate_per_minute / 60.0  # tokens a second
        self._burst = max(1.0, rate_per_minute / 6)  # ten seconds' worth at once
        self._buckets: collections.OrderedDict[str, tuple[float, float]] = collections.OrderedDict()
        self._lock = threading.Lock()

    async def jobs(self, request: Request) -> None:
        """Jobs: a key when keys are set, and the rate limit on submitting."""
        self._require_key(request)
        if request.method == "POST":
            self._take(request)

    async def admin(self, request: Request) -> None:
        self._require_key(request)

    async def searches(self, request: Request) -> None:
        self._take(request)

    @staticmethod
    def _given_key(request: Request) -> str | None:
        auth = request.headers.get("authorization", "")
        if auth[:7].lower() == "bearer ":
            return auth[7:].strip()
        return request.headers.get("x-api-key")

    def _known_key(self, request: Request) -> str | None:
        """The key the request gives, if it is one of the configured keys."""
        given = self._given_key(request)
        if given is None or not any(hmac.compare_digest(given.encode(), key) for key in self._keys):
            return None
        return given

    def _require_key(self, request: Request) -> None:
        if not self._keys:
            return
        if self._known_key(request) is None:
            raise HTTPException(401, "an API key is required here: Authorization: Bearer <key> (or X-API-Key)",
                                headers={"WWW-Authenticate": "Bearer"})

    def _take(self, request: Request) -> None:
        """One request from this client's allowance: its key's where it
        gives a configured key, else its address's (a made-up key per
        request must not buy a fresh allowance each time)."""
        if self._rate <= 0:
            return
        key = self._known_key(request)
        client = f"key:{key}" if key else "ip:" + (request.client.host if request.client else "-")
        now = time.monotonic()
        with self._lock:
            tokens, then = self._buckets.pop(client, (self._burst, now))
            tokens = min(self._burst, tokens + (now - then) * self._rate)
            if tokens < 1:
                self._buckets[client] = (tokens, now)
                wait = math.ceil((1 - tokens) / self._rate)
                raise HTTPException(429, f"more than {self._rate * 60:g} requests a minute from this client; "
                                    f"try again in {wait} s", headers={"Retry-After": str(wait)})
            self._buckets[client] = (tokens - 1, now)
            while len(self._buckets) > _MAX_CLIENTS:
                self._buckets.popitem(last=False)
