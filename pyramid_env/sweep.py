"""Sweeps over deals: the work in chunks, on local processes or on Ray, kept as it finishes.

Every sweep of the project (:func:`~pyramid_env.evaluate`, the benchmark, winnability, labels)
is a function of a list of deals giving one JSON-able result per deal, each depending only on its
deal; so the deals are cut into chunks and played anywhere, in any order: on ``workers`` local
processes (``backend="local"``) or as Ray tasks (``backend="ray"``). The results come back in
the deals' order, equal to a serial run whatever the chunking, backend or resumes. A ``store``
folder keeps each finished chunk at once, so a killed run resumes losing none; a worker that dies
mid-chunk has its chunk played again. The scaling page tells the rest.
"""

from __future__ import annotations

import json
import math
import operator
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyramid_env.engine.errors import PyramidError, describe, is_int, shorten
from pyramid_env.engine.files import read_json, write_atomic
from pyramid_env.workers import limit_threads, one_thread, pool_context, process_pool

BACKENDS = ("local", "ray")
MAX_WORKERS = 256
"""The most workers a sweep takes: local processes, or CPUs of a Ray instance started here (and
never more processes than chunks). More is a typo (100000), not a plan: each process costs
memory and a start-up."""
SETTINGS_FILE = "settings.json"
RAY_EXTRA = "pip install 'pyramid-env[ray]'"

ChunkFn = Callable[[list[int]], Sequence[Any]]


@dataclass(frozen=True, slots=True)
class Backend:
    """Where a sweep's chunks run.

    Attributes:
        name: ``"local"`` or ``"ray"``.
        workers: local processes, or the CPUs of the Ray instance started here (with
            ``address`` the cluster's own CPUs set the pace and this only bounds the chunks
            in flight).
        address: a Ray cluster's address (``"auto"``, ``"ray://host:10001"``); ``None``
            starts a new local Ray instance (even on a machine where a cluster runs), unless
            one is running in this process already, which is used as it is.
    """

    name: str = "local"
    workers: int = 1
    address: str | None = None


def check_backend(name: object, workers: object = 1, address: object = None) -> Backend:
    """The three backend arguments checked and combined, or an error naming the bad one.

    Raises:
        PyramidError: an unknown backend, a worker count that is not an int in 1..256, an address
            that is not a string, an address with the local backend, or ``"ray"`` without Ray
            installed.
    """
    if name not in BACKENDS:
        raise PyramidError(f"backend={name!r}: one of {', '.join(BACKENDS)}")
    if not is_int(workers) or not 1 <= workers <= MAX_WORKERS:  # type: ignore[operator]
        raise PyramidError(f"workers={shorten(workers)} must be an int >= 1, at most {MAX_WORKERS}")
    if address is not None and not isinstance(address, str):
        raise PyramidError(f"address={address!r} must be a string, such as 'auto'")
    if address is not None and name != "ray":
        raise PyramidError(f"address={address!r} is a Ray cluster's: it needs backend='ray'")
    if name == "ray":
        _import_ray()
    return Backend(str(name), int(workers), address)  # type: ignore[call-overload]


def _import_ray() -> Any:
    try:
        import ray
    except ImportError as err:
        raise PyramidError(f"backend='ray' needs Ray, which is not installed: {RAY_EXTRA}") from err
    return ray


def default_chunk(deals: int, workers: int, cap: int = 50) -> int:
    """A chunk size for ``deals`` over ``workers``: at most ``cap``, at least 1.

    Small enough that every worker gets work and a killed run loses little, large enough that
    the cost of a task (sending the function, writing a file) is small against its work.
    """
    return max(1, min(cap, math.ceil(deals / max(1, workers))))


class ChunkStore:
    """Finished chunks in a folder, one JSON file each, with the settings of the run.

    Args:
        folder: where the chunks go (made if missing).
        settings: what the results depend on (JSON-able); a resumed run must give the same.
        resume: keep the chunks already there (the settings must match); otherwise the folder's
            chunks and settings are removed first (nothing else in it is touched).

    Raises:
        PyramidError: ``resume`` with no earlier run in ``folder``, or one of other settings.
    """

    def __init__(
        self,
        folder: str | Path,
        settings: dict[str, Any],
        resume: bool,
        check: Callable[[Any], bool] | None = None,
    ) -> None:
        """See the class docstring."""
        self.folder = Path(folder)
        self.check = check
        # As the file will hold them (anything JSON cannot write is kept as its repr).
        self.settings = json.loads(json.dumps(settings, default=repr))
        meta = self.folder / SETTINGS_FILE
        if resume:
            try:
                earlier = read_json(meta, "settings")
            except (OSError, PyramidError) as err:
                raise PyramidError(
                    f"resume: {str(self.folder)!r} holds no earlier run ({err}); "
                    "run without resume to start one"
                ) from err
            if not isinstance(earlier, dict):
                raise PyramidError(
                    f"resume: {str(meta)!r} holds {describe(earlier)}, not the settings of a "
                    "run (a dict); start again without resume"
                )
            if earlier != self.settings:
                keys = sorted(set(earlier) | set(self.settings))
                diff = {k: (earlier.get(k), self.settings.get(k)) for k in keys
                        if earlier.get(k) != self.settings.get(k)}  # fmt: skip
                raise PyramidError(
                    f"resume: {str(self.folder)!r} holds a run of other settings "
                    f"({shorten(diff, 2000)}: (then, now)); use another folder, or start again "
                    "without resume"
                )
            for stale in self.folder.glob(".*.tmp"):  # a write stopped before its rename
                stale.unlink(missing_ok=True)
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        for old in [*self.folder.glob("chunk-*.json"), *self.folder.glob(".*.tmp")]:
            old.unlink()
        write_atomic(meta, json.dumps(self.settings, indent=1) + "\n")

    def load(self) -> dict[int, Any]:
        """The results of every finished chunk, by deal.

        A file that cannot be read or does not hold a chunk (a list of deal numbers and as many
        results, each passing the store's ``check``) is skipped with a warning naming it, and
        its deals are played again: a damaged file costs time, never a wrong result.
        """
        done: dict[int, Any] = {}
        for path in sorted(self.folder.glob("chunk-*.json")):
            try:
                data = read_json(path, "chunk")
                deals, results = data["deals"], data["results"]
                if (
                    not isinstance(deals, list)
                    or not isinstance(results, list)
                    or len(deals) != len(results)
                    or not all(is_int(n) for n in deals)
                ):
                    raise ValueError("not a list of deals and as many results")
                if self.check is not None:
                    bad = next((r for r in results if not self.check(r)), None)
                    if bad is not None:
                        raise ValueError(f"result {shorten(bad)} is not one of this run's")
                done.update(zip(deals, results, strict=True))
            except (OSError, PyramidError, ValueError, KeyError, TypeError) as err:
                print(
                    f"warning: {path} is unreadable ({shorten(str(err), 200)}): its deals play "
                    "again",
                    file=sys.stderr,
                )
        return done

    def put(self, deals: list[int], results: list[Any]) -> None:
        """Write one finished chunk (whole or not at all: a temporary file, then a rename)."""
        text = json.dumps({"deals": deals, "results": results}, separators=(",", ":"))
        write_atomic(self.folder / f"chunk-{deals[0]}-{len(deals)}.json", text)

    def clear(self) -> None:
        """Remove the chunks and the settings (the results are safe elsewhere)."""
        files = [*self.folder.glob("chunk-*.json"), *self.folder.glob(".*.tmp")]
        for path in [*files, self.folder / SETTINGS_FILE]:
            path.unlink(missing_ok=True)
        try:
            self.folder.rmdir()
        except OSError:
            pass  # not empty: something else lives there


def resume_flags(stores: Sequence[str | Path], resume: bool) -> list[bool]:
    """Per store of a several-part run (a preset each), whether to resume it.

    With ``resume``, a store that holds a run is resumed and one that holds none (the stopped
    run never reached it) starts afresh; without, every store starts afresh.

    Raises:
        PyramidError: ``resume`` and no store holds a run: nothing to resume.
    """
    started = [(Path(store) / SETTINGS_FILE).exists() for store in stores]
    if resume and stores and not any(started):
        where = ", ".join(str(store) for store in stores)
        raise PyramidError(f"--resume: no earlier run in {where}; run without --resume")
    return [resume and s for s in started]


def sweep(
    fn: ChunkFn,
    deals: Iterable[int],
    *,
    backend: Backend | str = "local",
    workers: int = 1,
    address: str | None = None,
    chunk_size: int | None = None,
    store: str | Path | None = None,
    settings: dict[str, Any] | None = None,
    resume: bool = False,
    retries: int = 3,
    progress: str | None = None,
    check: Callable[[Any], bool] | None = None,
) -> list[Any]:
    """``fn`` over ``deals`` in chunks: one JSON-able result per deal, in the deals' order.

    A deal given twice is played once. Results pass through JSON (tuples become lists), so a
    fresh run and a resumed one return the same.

    Args:
        fn: takes a list of deal numbers, returns one JSON-able result each; picklable (a
            module-level function or a ``functools.partial`` of one), whatever the chunking.
        deals: the deal numbers.
        backend: ``"local"``, ``"ray"`` or a :class:`Backend` (which then gives the next two).
        workers: as :attr:`Backend.workers`, 1 to :data:`MAX_WORKERS`.
        address: a Ray cluster's address, as :attr:`Backend.address`.
        chunk_size: deals per chunk (default :func:`default_chunk`).
        store: a folder keeping finished chunks, with ``settings`` (what results depend on).
        settings: JSON-able settings a resumed store must match.
        resume: play only what ``store`` does not hold.
        retries: how many times a chunk whose worker died is played again.
        progress: the label of a progress bar (``None``: none).
        check: tells a stored result of ``fn``'s form (others are played again).

    Returns:
        One result per deal, in the order of ``deals``.

    Raises:
        PyramidError: a bad backend, worker count, chunk size or store.
        RuntimeError: a chunk whose worker died more than ``retries`` times (and whatever
            ``fn`` raised).
    """
    if isinstance(backend, Backend):
        where = check_backend(backend.name, backend.workers, backend.address)
    else:
        where = check_backend(backend, workers, address)
    try:
        deals = [operator.index(n) for n in deals]
    except TypeError as err:
        raise PyramidError(f"deals: {err}; deal numbers are ints") from None
    if chunk_size is not None and (not is_int(chunk_size) or chunk_size < 1):
        raise PyramidError(f"chunk_size={chunk_size!r} must be an int >= 1")
    if not is_int(retries) or retries < 0:
        raise PyramidError(f"retries={retries!r} must be an int >= 0")
    saved: ChunkStore | None = None
    if store is not None:
        if settings is None:
            raise PyramidError("store needs settings: what the results depend on")
        saved = ChunkStore(store, settings, resume, check)
    elif resume:
        raise PyramidError("resume needs store: the folder of the run to resume")
    done = saved.load() if saved else {}
    if resume:
        kept = sum(n in done for n in dict.fromkeys(deals))
        print(f"resuming: {kept} of {len(deals)} deals are in {store}", file=sys.stderr)
    todo = [n for n in dict.fromkeys(deals) if n not in done]
    size = chunk_size or default_chunk(len(todo), where.workers)
    chunks = [todo[i : i + size] for i in range(0, len(todo), size)]
    bar = None
    if progress is not None:
        from tqdm import tqdm

        bar = tqdm(total=len(deals), initial=len(deals) - len(todo), desc=progress,
                   unit="deal", leave=False)  # fmt: skip
    run = _ray_chunks if where.name == "ray" else _local_chunks
    try:
        for chunk, results in run(fn, chunks, where, retries):
            results = json.loads(json.dumps(list(results)))  # what a resumed run reads back
            if len(results) != len(chunk):
                raise RuntimeError(f"{fn!r} gave {len(results)} results for {len(chunk)} deals")
            if saved:
                saved.put(chunk, results)
            done.update(zip(chunk, results, strict=True))
            if bar:
                bar.update(len(chunk))
    finally:
        if bar:
            bar.close()
    return [done[n] for n in deals]


def _local_chunks(
    fn: ChunkFn, chunks: list[list[int]], where: Backend, retries: int
) -> Iterator[tuple[list[int], Sequence[Any]]]:
    """Each chunk and its results, as they finish, on this machine's processes."""
    if where.workers == 1 or len(chunks) <= 1:
        for chunk in chunks:
            with one_thread():  # as in a worker: the same results, bit for bit
                results = fn(chunk)
            yield chunk, results
        return
    pending = dict(enumerate(chunks))
    deaths = 0
    while pending:
        broken = False
        pool = process_pool(min(where.workers, len(pending)))
        try:
            futures = {}
            try:
                for i, chunk in pending.items():
                    futures[pool.submit(fn, chunk)] = i
            except BrokenProcessPool:  # a worker died while the chunks were being handed out
                broken = True
            for future in as_completed(futures):
                try:
                    results = future.result()
                except BrokenProcessPool:  # a worker died: its chunk and the unfinished rerun
                    broken = True
                    continue
                yield pending.pop(futures[future]), results
        finally:  # on an error, the chunks not started are dropped, not played first
            pool.shutdown(wait=True, cancel_futures=True)
        if broken:
            deaths += 1
            if deaths > retries:
                firsts = ", ".join(str(c[0]) for c in list(pending.values())[:5])
                hint = ""
                if pool_context() is not None:  # the script is imported in the forkserver
                    hint = (
                        "; Ray is loaded, so the workers start from a forkserver, which imports "
                        "the script that started them: its entry point must be guarded by "
                        '`if __name__ == "__main__":`'
                    )
                raise RuntimeError(
                    f"a worker process died {deaths} times (retries={retries}); "
                    f"{len(pending)} chunks unfinished, starting at deals {firsts}{hint}"
                )
            print(
                f"warning: a worker process died; playing {len(pending)} unfinished chunks "
                f"again ({deaths} of {retries} retries)",
                file=sys.stderr,
                flush=True,
            )


def _ray_task(fn: ChunkFn, chunk: list[int]) -> Sequence[Any]:
    """One chunk in a Ray worker, on one thread (Ray gives each task one CPU)."""
    limit_threads(1)
    return fn(chunk)


def _ray_chunks(
    fn: ChunkFn, chunks: list[list[int]], where: Backend, retries: int
) -> Iterator[tuple[list[int], Sequence[Any]]]:
    """Each chunk and its results, as they finish, as Ray tasks (retried if a worker dies)."""
    if not chunks:  # everything was in the store
        return
    ray = _import_ray()
    if not ray.is_initialized():
        options: dict[str, Any] = {"include_dashboard": False, "logging_level": "WARNING"}
        if where.address is None:  # a new instance here, even where a cluster runs already
            options |= {"address": "local", "num_cpus": where.workers}
        else:
            options["address"] = where.address
        ray.init(**options)
    task = ray.remote(num_cpus=1, max_retries=retries)(_ray_task)
    fn_ref = ray.put(fn)  # sent once, not with every chunk
    in_flight = max(2 * where.workers, int(ray.available_resources().get("CPU", 1)) * 2)
    queue = list(reversed(chunks))
    refs: dict[Any, list[int]] = {}
    try:
        while queue or refs:
            while queue and len(refs) < in_flight:
                chunk = queue.pop()
                refs[task.remote(fn_ref, chunk)] = chunk
            ready, _ = ray.wait(list(refs), num_returns=1)
            try:
                results = ray.get(ready[0])
            except ray.exceptions.WorkerCrashedError as err:
                raise RuntimeError(
                    f"deals {refs[ready[0]][0]}..: the worker died {retries + 1} times ({err})"
                ) from err
            yield refs.pop(ready[0]), results
    finally:  # stopped early (an error, a stop): the chunks still out are not wanted
        for ref in refs:
            ray.cancel(ref)


__all__ = [
    "BACKENDS",
    "MAX_WORKERS",
    "Backend",
    "ChunkStore",
    "check_backend",
    "default_chunk",
    "resume_flags",
    "sweep",
]
