"""numba, set up once for every compiled backend: the solver's kernel and the vector env's.

The engine's scalar rules (:mod:`pyramid_env.engine.primitives`) are plain functions of ints
calling ``int.bit_length`` and ``int.bit_count``; this module gives numba compiled versions of
those two methods and registers every primitive, so compiled code calls the engine's own
functions as they are. Both kernels import it and never each other (numba's registries are
global: registering twice would clash). Without numba (``AVAILABLE`` false) nothing is
registered and :func:`compiled` returns the function as it is.
"""

from __future__ import annotations

import hashlib
import inspect
import types as types_
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pyramid_env.engine import dead_deal
from pyramid_env.engine import primitives as P

try:
    from numba import njit, types
    from numba.core import cgutils
    from numba.cpython.unsafe.numbers import leading_zeros
    from numba.extending import intrinsic, overload_method, register_jitable
except ImportError:  # the compiled backends are optional where numba is
    njit = None

AVAILABLE = njit is not None


def _borrowed_python(arr: Any) -> Any:
    """Without numba an array is its own borrowed view."""
    return arr


if AVAILABLE:

    @intrinsic
    def _ctpop(typingctx: Any, x: Any) -> Any:
        """LLVM's population count, for ``int.bit_count``."""

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])

        return x(x), codegen

    # numba matches an overload's signature to its implementation's: no annotations here.
    @overload_method(types.Integer, "bit_length")
    def _bit_length(x):  # noqa: ANN001, ANN202
        """``int.bit_length`` for the non-negative ints the rules use."""
        return lambda x: 64 - leading_zeros(x)

    @overload_method(types.Integer, "bit_count")
    def _bit_count(x):  # noqa: ANN001, ANN202
        """``int.bit_count`` for the non-negative ints the rules use."""
        return lambda x: _ctpop(x)

    @intrinsic
    def _borrowed(typingctx: Any, arr: Any) -> Any:
        """``arr`` without its owner (meminfo): compiled code stops counting references to it.

        numba counts an array's references with atomic increments and decrements at every call
        that passes it and every view (``a[i]``) taken of it; in a loop over games calling
        helpers that was about a quarter of the vector env's step. A view of an array with no
        owner has none either, and the counting functions return at once on a null owner. The
        caller keeps the original alive (an argument of the running call is), and a borrowed
        array must not be returned or stored: nothing keeps its memory alive.
        """
        if not isinstance(arr, types.Array):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            cls = context.make_array(arr)
            src = cls(context, builder, value=args[0])
            out = cls(context, builder)
            for field in ("parent", "nitems", "itemsize", "data", "shape", "strides"):
                setattr(out, field, getattr(src, field))
            out.meminfo = cgutils.get_null_value(out.meminfo.type)
            return out._getvalue()

        return arr(arr), codegen

    for _fn in (*P.PRIMITIVES, *dead_deal.FUNCTIONS):  # the engine's, compiled as they are
        if _fn in P.INLINED:
            register_jitable(inline="always")(_fn)
        else:
            register_jitable(_fn)
    borrowed = _borrowed
else:
    borrowed = _borrowed_python


def compiled(registry: list[Any], inline: bool = False) -> Callable[[Any], Any]:
    """A decorator compiling a function with numba's on-disk cache, noted in ``registry``.

    ``registry`` collects the compiled functions of one module, for
    :func:`forget_stale_cache`. ``inline``: LLVM compiles the function into each caller
    (numba's ``forceinline``): no call, and no counting of the arrays passed; numba types it
    once, where its own ``inline="always"`` types it again at every call site, which is slow
    to compile. Without numba the function is returned unchanged.
    """

    def wrap(fn: Any) -> Any:
        if not AVAILABLE:
            return fn
        options = {"forceinline": True} if inline else {}
        fast = njit(cache=True, nogil=True, **options)(fn)
        registry.append(fast)
        return fast

    return wrap


def outlined(registry: list[Any]) -> dict[str, Any]:
    """The primitives of ``P.INLINED`` by name, each typed once, inlined by LLVM.

    The searches inline them through numba (``inline="always"``), which types their code
    again at every call site: most of such a kernel's first compilation. These copies are
    typed once and compiled into their callers by LLVM (:func:`compiled` with ``inline``), as
    fast and far quicker to compile. The copies call each other, not the numba-inlined
    versions; ``registry`` as for :func:`compiled`. Without numba: the primitives themselves.
    """
    if not AVAILABLE:
        return {fn.__name__: fn for fn in P.INLINED}
    names = dict(vars(P))  # the copies' globals: the primitives' module, these names rebound
    wrap = compiled(registry, inline=True)
    for fn in P.INLINED:
        copy = types_.FunctionType(fn.__code__, names, fn.__name__, fn.__defaults__)
        copy.__qualname__, copy.__module__ = fn.__qualname__, fn.__module__
        names[fn.__name__] = wrap(copy)
    return {fn.__name__: names[fn.__name__] for fn in P.INLINED}


def forget_stale_cache(registry: list[Any], name: str, uses: tuple[Any, ...] = ()) -> None:
    """Drop a module's compiled cache when the engine's primitives changed since it was written.

    numba checks a cached function against its own source file only, not against the
    functions it compiled in from elsewhere: after an edit of
    :mod:`pyramid_env.engine.primitives` it would go on running the old rules. So the cache is
    stamped with a digest of the primitives' source and of the other functions it ``uses``
    (``<name>-primitives-<digest>.stamp``), and flushed when the stamp is missing.
    """
    if not registry:
        return
    parts = [inspect.getsource(P), inspect.getsource(dead_deal)]
    source = "".join(parts + [inspect.getsource(fn) for fn in uses]).encode()
    digest = hashlib.sha256(source).hexdigest()[:16]
    try:
        stamp = Path(registry[0]._cache.cache_path) / f"{name}-primitives-{digest}.stamp"
        if stamp.exists():
            return
        for fn in registry:
            fn._cache.flush()
        stamp.parent.mkdir(parents=True, exist_ok=True)
        for old in stamp.parent.glob(f"{name}-primitives-*.stamp"):
            old.unlink()
        stamp.touch()
    except (AttributeError, OSError):  # another numba layout, or a read-only install
        pass
