"""Rate limits for requests that cost the server work: token buckets, and a gate that holds
what comes too fast and runs only the latest of it.

Used for script reruns (``quiz.ui.streamlit_internals.rerun_limit``): every ``BackMsg.rerun_script`` a browser
tab sends makes Streamlit start a new script thread, so a client that sends thousands of
them at once keeps the server's one Python core busy for as long as it likes.
A person clicks a few times a second at most; the gate lets that through untouched.

``RerunGate`` keeps, per session, a token bucket and at most one *held* request. A request
that finds a token in its session's bucket (and, for requests that count per client, in
its client's bucket) runs at once. One that does not is held: it replaces the request
already held for the session, if any, and runs when the buckets have a token again. So a
flood costs a bounded number of runs, and the session still ends up running the last
thing it asked for. Nothing here knows about Streamlit or threads: the caller calls in
from one thread (Streamlit's event loop) and schedules the releases.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

Request = TypeVar("Request")
PRUNE_EVERY = 256  # offers between two sweeps of keys that have been quiet long enough to forget
CUT_AFTER = 5_000  # requests of one session replaced while held, in one flood, after which it is cut off
EPSILON = 1e-9  # tokens: a bucket this close to a whole token has it (refills are float sums)


@dataclass(frozen=True, slots=True)
class RatePolicy:
    """At most ``burst`` requests at once, refilled at ``per_second`` requests a second."""

    burst: int
    per_second: float

    def __post_init__(self) -> None:
        if self.burst < 1 or self.per_second <= 0:
            raise ValueError(f"a rate needs a burst of at least 1 and a positive rate, not {self}")

    @property
    def refill_seconds(self) -> float:
        """Seconds for an empty bucket to fill up again."""
        return self.burst / self.per_second


@dataclass(slots=True)
class TokenBucket:
    """A bucket of ``policy.burst`` tokens that refills continuously at ``policy.per_second``.

    Times are seconds on one monotonic clock; a time earlier than the last one seen counts as
    the last one (no refund for a clock that steps back).
    """

    policy: RatePolicy
    tokens: float
    stamp: float

    @classmethod
    def full(cls, policy: RatePolicy, now: float) -> TokenBucket:
        return cls(policy, float(policy.burst), now)

    def _refill(self, now: float) -> None:
        if now > self.stamp:
            self.tokens = min(float(self.policy.burst), self.tokens + (now - self.stamp) * self.policy.per_second)
            self.stamp = now

    def available(self, now: float) -> bool:
        self._refill(now)
        return self.tokens >= 1.0 - EPSILON

    def take(self, now: float) -> bool:
        """Take a token if there is one; False (and nothing taken) if not."""
        if not self.available(now):
            return False
        self.tokens = max(0.0, self.tokens - 1.0)
        return True

    def wait(self, now: float) -> float:
        """Seconds until a token is there (0 if one is there now)."""
        if self.available(now):
            return 0.0
        return (1.0 - self.tokens) / self.policy.per_second

    def is_full(self, now: float) -> bool:
        self._refill(now)
        return self.tokens >= self.policy.burst - EPSILON


@dataclass(frozen=True, slots=True)
class Admission:
    """What to do with an offered request.

    ``run``: run it now. Otherwise it is held; ``release_in`` is when to call
    ``RerunGate.release`` for its session (None when a release is already due: the request
    only replaced one that was held). ``first_hold_of_session`` / ``first_hold_of_client``
    say that this session / client is held back for the first time since the gate last
    forgot it (``prune``: quiet until its bucket was full again), to log each flood once.
    ``cut``: the session has had ``cut_after`` requests replaced while held in this flood,
    which no browser does: end its connection (its state here is forgotten).
    """

    run: bool
    release_in: float | None = None
    first_hold_of_session: bool = False
    first_hold_of_client: bool = False
    cut: bool = False


@dataclass(slots=True)
class _Session(Generic[Request]):
    bucket: TokenBucket
    client: str | None
    held: Request | None = None
    held_counts_for_client: bool = False
    holding: bool = False  # a release is due
    warned: bool = False
    replaced: int = 0  # held requests replaced by a later one since the gate last forgot the session


@dataclass(slots=True)
class _Client:
    bucket: TokenBucket
    warned: bool = False


@dataclass
class RerunGate(Generic[Request]):
    """Per-session and per-client admission of reruns, holding the latest of those over the rate.

    ``offer`` for each request as it arrives; ``release`` when an ``Admission.release_in``
    has passed: it returns the held request when it may run now, or says how much longer to
    wait. ``client`` is the client's address, or None for none to count against (this
    machine's own tools; see ``quiz.ui.streamlit_internals.rerun_limit``). ``counts_for_client`` is False for a
    request that does not take a token from the client's bucket (a fragment's run).

    A fragment's run never replaces a held full run (the full run runs the fragment too);
    any other request replaces the held one. A session whose held requests were replaced
    ``cut_after`` times in one flood is to be cut off (``Admission.cut``): holding its
    requests costs little, but reading them still costs the server's event loop (about
    20 µs each), so a client that keeps sending for seconds must lose its connection.
    """

    session_policy: RatePolicy
    client_policy: RatePolicy
    cut_after: int = CUT_AFTER
    sessions: dict[str, _Session[Request]] = field(default_factory=dict)
    clients: dict[str, _Client] = field(default_factory=dict)
    _offers: int = 0

    def offer(self, session_id: str, client: str | None, request: Request, now: float, *,
              counts_for_client: bool = True) -> Admission:
        self._offers += 1
        if self._offers % PRUNE_EVERY == 0:
            self.prune(now)
        session = self.sessions.get(session_id)
        if session is None:
            session = self.sessions[session_id] = _Session(TokenBucket.full(self.session_policy, now), client)
        session.client = client
        if session.holding:  # a release is due: this one takes the held one's place
            if counts_for_client or not session.held_counts_for_client:
                session.held, session.held_counts_for_client = request, counts_for_client
            session.replaced += 1
            if session.replaced >= self.cut_after:
                self.forget(session_id)
                return Admission(run=False, cut=True)
            return Admission(run=False)
        client_state = self._client(client, now) if counts_for_client else None
        if session.bucket.available(now) and (client_state is None or client_state.bucket.available(now)):
            session.bucket.take(now)
            if client_state is not None:
                client_state.bucket.take(now)
            return Admission(run=True)
        session.held, session.held_counts_for_client, session.holding = request, counts_for_client, True
        first_session, session.warned = not session.warned, True
        first_client = False
        if client_state is not None and not client_state.bucket.available(now):
            first_client, client_state.warned = not client_state.warned, True
        return Admission(run=False, release_in=self._wait(session, now),
                         first_hold_of_session=first_session, first_hold_of_client=first_client)

    def release(self, session_id: str, now: float) -> tuple[Request | None, float | None]:
        """The held request of the session if it may run now (its tokens taken), else None;
        and, when it still has to wait, the seconds until the next ``release``."""
        session = self.sessions.get(session_id)
        if session is None or not session.holding:
            return None, None
        client_state = self._client(session.client, now) if session.held_counts_for_client else None
        if session.bucket.available(now) and (client_state is None or client_state.bucket.available(now)):
            session.bucket.take(now)
            if client_state is not None:
                client_state.bucket.take(now)
            request, session.held, session.holding = session.held, None, False
            return request, None
        return None, self._wait(session, now)

    def forget(self, session_id: str) -> None:
        """Drop a session's state (its held request too)."""
        self.sessions.pop(session_id, None)

    def prune(self, now: float) -> None:
        """Forget sessions and clients whose buckets are full and that hold nothing: they are
        as if never seen (a session's state ends with it, not with the server)."""
        for key in [k for k, s in self.sessions.items() if not s.holding and s.bucket.is_full(now)]:
            del self.sessions[key]
        for key in [k for k, c in self.clients.items() if c.bucket.is_full(now)]:
            del self.clients[key]

    def _client(self, client: str | None, now: float) -> _Client | None:
        if client is None:
            return None
        state = self.clients.get(client)
        if state is None:
            state = self.clients[client] = _Client(TokenBucket.full(self.client_policy, now))
        return state

    def _wait(self, session: _Session[Request], now: float) -> float:
        wait = session.bucket.wait(now)
        if session.held_counts_for_client and session.client is not None:
            client_state = self._client(session.client, now)
            if client_state is not None:
                wait = max(wait, client_state.bucket.wait(now))
        return wait
