"""CPU-heavy work off the event loop: worker processes, a time limit, one job per user.

Exact odds, large rolls and the map picture take from a millisecond to seconds of
CPU. On the event loop they would hold every other chat of the worker meanwhile, so
they run in other processes:

- :class:`ProcessPool` keeps up to ``size`` worker processes, each running one job
  (a picklable top-level function and its arguments) at a time; they start when
  first needed. A job over ``seconds`` is killed with its process, which is
  replaced, and its caller gets :class:`~core.runtime.errors.TooHeavy`; the pool
  goes on serving the next job.
- :class:`InProcessTurns` and :class:`RedisTurns` give each user one heavy job in
  flight at most (the Redis one across workers; its key expires by itself, so a
  worker that died never blocks anyone). A second job waits ``wait_seconds`` for
  the first, then is refused with :class:`~core.runtime.errors.OneAtATime`.
- :class:`HeavyWork` puts the two together: ``await heavy.run(user, odds, expression)``;
  ``heavy.run_if_free`` does not wait for the user's last job (it refuses at once), for
  work a page can go without.

Errors of the rules raised by a job (a roll too large for exact odds) reach the
caller as they were raised, with their message id and values.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import math
import multiprocessing
import secrets
import signal
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from core.rules.errors import StonetableError
from core.runtime.errors import OneAtATime, TooHeavy, TryAgain

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger(__name__)
T = TypeVar("T")

DEFAULT_SECONDS = 10.0
STARTUP_SECONDS = 60.0
TURN_WAIT_SECONDS = 1.0  # a user's next heavy job waits this long for the last one


def _serve(jobs: Connection, preload: tuple[str, ...]) -> None:
    """A worker process: run each job received, send back its outcome."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    for name in preload:  # imported once, before any job's time counts
        importlib.import_module(name)
    jobs.send(("ready",))  # a job's time counts from here, not from the process's start
    while True:
        try:
            function, args = jobs.recv()
        except (EOFError, OSError):
            return  # the parent went away
        try:
            outcome: tuple[Any, ...] = ("done", function(*args))
        except StonetableError as error:  # rebuilt in the parent with its message id
            outcome = ("refused", type(error), error.message_id, error.values)
        except Exception as error:
            outcome = ("failed", repr(error))
        try:
            jobs.send(outcome)
        except Exception as error:  # the result would not pickle
            jobs.send(("failed", repr(error)))


def _refusal(kind: type[StonetableError], message_id: str, values: dict[str, Any]) -> Exception:
    error = kind.__new__(kind)
    StonetableError.__init__(error, message_id, **values)
    return error


class _Worker:
    """One worker process and the pipe its jobs go through."""

    def __init__(self, context: BaseContext, preload: tuple[str, ...]) -> None:
        self.jobs, theirs = context.Pipe()
        self.process: BaseProcess = context.Process(  # type: ignore[attr-defined]
            target=_serve, args=(theirs, preload), name="stonetable-heavy", daemon=True
        )
        self.process.start()
        theirs.close()
        if not self.jobs.poll(STARTUP_SECONDS):
            self.kill()
            raise RuntimeError("A worker process for heavy work did not start")
        self.jobs.recv()

    @property
    def pid(self) -> int | None:
        return self.process.pid

    async def run(self, function: Callable[..., Any], args: tuple[Any, ...], seconds: float) -> Any:
        """The job's outcome; raises TimeoutError after ``seconds`` (the job goes on
        running: the caller kills this worker)."""
        self.jobs.send((function, args))
        # the answer is awaited in a thread: the pipe stays blocking whatever the loop
        outcome = await asyncio.to_thread(self._answer, seconds)
        if outcome is None:
            raise TimeoutError()
        return outcome

    def _answer(self, seconds: float) -> Any:
        try:
            if not self.jobs.poll(seconds):
                return None
            return self.jobs.recv()
        except (EOFError, OSError) as error:  # the process died, or was killed
            return ("failed", repr(error))

    def kill(self) -> None:
        with suppress(OSError, ValueError):
            self.process.kill()
        self.process.join(timeout=5)  # its pipe closes with the last reference to it


class ProcessPool:
    """Up to ``size`` worker processes, each running one job at a time, each job at
    most ``seconds`` long. A process imports the modules named in ``preload`` (those
    of the jobs it will be sent) as it starts, so no job's time goes on imports."""

    def __init__(
        self,
        size: int,
        seconds: float = DEFAULT_SECONDS,
        *,
        preload: tuple[str, ...] = (),
        start_method: str = "forkserver",
    ) -> None:
        if size < 1:
            raise ValueError("a pool needs at least one worker")
        self.size = size
        self.seconds = seconds
        self.preload = preload
        self._context = multiprocessing.get_context(start_method)
        self._idle: list[_Worker] = []
        self._every: set[_Worker] = set()  # idle or busy
        self._started = 0
        self._freed: asyncio.Condition | None = None
        self._closed = False

    @property
    def processes(self) -> int:
        """How many worker processes are up, idle or busy."""
        return len(self._every)

    def _condition(self) -> asyncio.Condition:
        if self._freed is None:
            self._freed = asyncio.Condition()
        return self._freed

    async def _take(self) -> _Worker:
        freed = self._condition()
        async with freed:
            while not self._idle and self._started >= self.size:
                await freed.wait()
            if self._closed:
                raise TryAgain()
            if self._idle:
                return self._idle.pop()
            self._started += 1
        try:
            worker = await asyncio.to_thread(_Worker, self._context, self.preload)
        except BaseException:
            await self._give_back(None)
            raise
        self._every.add(worker)
        return worker

    async def _give_back(self, worker: _Worker | None) -> None:
        """Return an idle worker (None: a worker is gone, another may start)."""
        freed = self._condition()
        async with freed:
            if worker is None or self._closed:
                self._started -= 1
                if worker is not None:
                    worker.kill()
                    self._every.discard(worker)
            else:
                self._idle.append(worker)
            freed.notify()

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in a worker process.

        Raises:
            TooHeavy: it ran over the time limit (its process was killed).
            StonetableError: what the function raised (a rules error, as it was).
            RuntimeError: the function failed otherwise, or its process died.
        """
        worker = await self._take()
        try:
            outcome = await worker.run(function, args, self.seconds)
        except TimeoutError:
            log.warning("A heavy job ran over %.1f s and was stopped", self.seconds)
            worker.kill()
            self._every.discard(worker)
            await self._give_back(None)
            raise TooHeavy(seconds=math.ceil(self.seconds)) from None
        except BaseException:  # cancelled, or the process died: its answer cannot be trusted
            worker.kill()
            self._every.discard(worker)
            await self._give_back(None)
            raise
        if worker.process.is_alive():
            await self._give_back(worker)
        else:  # it died on this job (out of memory, a crash): another takes its place
            self._every.discard(worker)
            await self._give_back(None)
        if outcome[0] == "done":
            return outcome[1]  # type: ignore[no-any-return]
        if outcome[0] == "refused":
            raise _refusal(outcome[1], outcome[2], outcome[3])
        raise RuntimeError(f"A heavy job failed: {outcome[1]}")

    async def aclose(self) -> None:
        """Stop every worker process (a job still running is killed)."""
        self._closed = True
        every, self._every, self._idle = self._every, set(), []
        for worker in every:
            worker.kill()
        if self._freed is not None:
            async with self._freed:
                self._freed.notify_all()


class Turns(Protocol):
    """One heavy job in flight per user."""

    wait_seconds: float

    def hold(
        self, user: int, wait_seconds: float | None = None
    ) -> AbstractAsyncContextManager[None]:
        """Hold the user's turn for one job (waiting ``wait_seconds``, if given, instead).

        Raises:
            OneAtATime: their last job was still running after ``wait_seconds``.
            TryAgain: the shared store is unreachable.
        """
        ...

    async def aclose(self) -> None: ...


class InProcessTurns:
    """Turns for one process."""

    def __init__(self, wait_seconds: float = TURN_WAIT_SECONDS) -> None:
        self.wait_seconds = wait_seconds
        self._busy: dict[int, asyncio.Event] = {}

    @asynccontextmanager
    async def hold(self, user: int, wait_seconds: float | None = None) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.wait_seconds if wait_seconds is None else wait_seconds)
        while (done := self._busy.get(user)) is not None:
            left = deadline - loop.time()
            if left <= 0:
                raise OneAtATime()
            with suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), timeout=left)
        self._busy[user] = done = asyncio.Event()
        try:
            yield
        finally:
            del self._busy[user]
            done.set()

    async def aclose(self) -> None:
        self._busy.clear()


# Let go only of our own turn.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class RedisTurns:
    """Turns shared by every worker through Redis: a key per user, set while their job
    runs, that expires after ``expire_seconds`` whatever happens to its worker."""

    def __init__(
        self,
        redis: Redis,
        expire_seconds: float,
        wait_seconds: float = TURN_WAIT_SECONDS,
        prefix: str = "stonetable:heavy:",
        poll_seconds: float = 0.05,
    ) -> None:
        self.wait_seconds = wait_seconds
        self.expire_seconds = expire_seconds
        self._redis = redis
        self._prefix = prefix
        self._poll = poll_seconds
        self._release = redis.register_script(_RELEASE)

    @asynccontextmanager
    async def hold(self, user: int, wait_seconds: float | None = None) -> AsyncIterator[None]:
        from redis.exceptions import RedisError

        key, owner = f"{self._prefix}{user}", secrets.token_hex(8)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.wait_seconds if wait_seconds is None else wait_seconds)
        expire_ms = max(1, int(self.expire_seconds * 1000))
        try:
            while not await self._redis.set(key, owner, nx=True, px=expire_ms):
                if loop.time() >= deadline:
                    raise OneAtATime()
                await asyncio.sleep(self._poll)
        except RedisError as error:
            raise TryAgain("The game store is unreachable. Try again in a moment.") from error
        try:
            yield
        finally:
            with suppress(RedisError):  # else the key expires by itself
                await self._release(keys=[key], args=[owner])

    async def aclose(self) -> None:
        await self._redis.aclose()


class HeavyWork:
    """CPU-heavy jobs in the process pool, one at a time per user."""

    def __init__(self, pool: ProcessPool, turns: Turns) -> None:
        self.pool = pool
        self.turns = turns

    async def run(self, user: int, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` off the event loop, as ``user``'s one job.

        Raises:
            OneAtATime: the user's last heavy job is still running.
            TooHeavy: the job ran over the pool's time limit.
            StonetableError: what the function raised.
        """
        async with self.turns.hold(user):
            return await self.pool.run(function, *args)

    async def run_if_free(self, user: int, function: Callable[..., T], *args: Any) -> T:
        """As :meth:`run`, but refused at once (OneAtATime) while the user's last heavy
        job is still running, instead of waiting for it."""
        async with self.turns.hold(user, wait_seconds=0):
            return await self.pool.run(function, *args)

    async def aclose(self) -> None:
        await self.pool.aclose()
        await self.turns.aclose()
