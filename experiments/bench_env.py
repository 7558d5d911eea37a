"""Env speed in one run: the engine, the single env, the vector env per form, and their yardsticks.

    python -m experiments.bench_env --steps 100000 --repeats 3 --vector 64 256 1024

Every entry plays random legal actions (uniform over the mask, chosen outside the clock) and
counts the steps of all its games per second of the process's own CPU time: the machine is
shared, and CPU time is what the code costs, whatever else runs. Resets are inside the clock.

- ``engine``: random playouts on the engine's fast path (``legal_ids`` / ``apply``), no env.
- ``PyramidEnv`` and ``gym.make``: one game (the latter with Gymnasium's wrappers), beside
  ``CartPole-v1`` raw and through ``gym.make``.
- ``vector N form``: :class:`~pyramid_env.env.vector.PyramidVectorEnv` of N games, per
  observation form (``--forms``: ``onehot:uint8`` is ``obs_dtype="uint8"``); ``sync N``:
  Gymnasium's ``SyncVectorEnv`` of N ``PyramidEnv`` (the smallest N only: it is slow).
- ``numpy N form``: the numpy vector env this one replaced, from the git ref ``--numpy-ref``
  (default: the commit before it was removed, ``e109584``, which every clone has; the tag
  ``numpy-vector-env`` names it where tags were fetched), extracted to a temporary folder and
  timed in a child process in the same run; skipped, saying so, if the ref is missing.

``--cold`` times instead the first use of each env with numba's cache cold (its compilation),
then warm, in child processes (CPU seconds).

``--against REF`` times instead the vector env against git ``REF``'s in one process: REF's
package, extracted and renamed ``pyramid_env_ref``, beside this one, the two stepped in
alternated blocks (``--blocks`` of ``--block-steps`` steps, random masked actions, CPU time),
for each ``--vector`` size and ``--forms`` form. A pair of blocks shares the machine's load,
which moves the absolute figures of separate runs by half on the shared machine.

Issue 30's targets: vector 256 onehot >= 8x numpy 256 onehot; single env through ``gym.make``
>= 1.0x ``gym.make("CartPole-v1")``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
NUMPY_REF = "e109584f8ce894648c8ca3b020d8f816de98beaf"  # the numpy vector env, before 28cf674


def clock() -> float:
    return time.process_time()


def engine_steps(rules: str, steps: int, seed: int) -> float:
    from pyramid_env.engine import state as st
    from pyramid_env.engine.moves import MOVES

    rng = np.random.default_rng(seed)
    s = st.State(int(rng.integers(2**63)), rules)
    spent = 0.0
    for _ in range(steps):
        start = clock()
        ids = st.legal_ids(s)
        if not ids or s.recycles > 50:
            s = st.State(int(rng.integers(2**63)), rules)
            spent += clock() - start
            continue
        pick = ids[int(rng.integers(len(ids)))] if len(ids) > 1 else ids[0]
        st.apply(s, MOVES[pick])
        spent += clock() - start
    return steps / spent


def env_steps(make, steps: int, seed: int) -> float:
    """Steps/s of one env under random masked actions (``make()`` builds it)."""
    env = make()
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    spent = 0.0
    for _ in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        action = int(legal[rng.integers(len(legal))])
        start = clock()
        _, _, term, trunc, info = env.step(action)
        if term or trunc:
            _, info = env.reset()
        spent += clock() - start
    return steps / spent


def cartpole_steps(make, steps: int, seed: int) -> float:
    env = make()
    env.reset(seed=seed)
    actions = np.random.default_rng(seed).integers(2, size=steps).tolist()
    spent = 0.0
    for a in actions:
        start = clock()
        _, _, term, trunc, _ = env.step(a)
        if term or trunc:
            env.reset()
        spent += clock() - start
    return steps / spent


def vector_steps(vec: gym.vector.VectorEnv, steps: int, seed: int) -> float:
    """Total steps/s (games x steps) of a vector env under random masked actions."""
    rng = np.random.default_rng(seed)
    _, info = vec.reset(seed=seed)
    n = vec.num_envs
    rounds = max(1, steps // n)
    spent = 0.0
    for _ in range(rounds):
        masks = info["action_mask"]
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)  # uniform legal per row
        start = clock()
        _, _, _, _, info = vec.step(actions)
        spent += clock() - start
    return n * rounds / spent


def numpy_child(tree: str, rules: str, sizes: list[int], forms: list[str], steps: int,
                repeats: int) -> dict[str, float]:  # fmt: skip
    """The old numpy vector env's figures, timed in a child process on the extracted ``tree``."""
    code = (
        "import json, sys, statistics\n"
        f"sys.path.insert(0, {tree!r})\n"
        f"sys.path.insert(1, {str(ROOT)!r})\n"
        "from experiments.bench_env import vector_steps\n"
        "import pyramid_env.env.vector as v\n"
        f"assert v.__file__.startswith({tree!r}), v.__file__\n"
        "out = {}\n"
        f"for n in {sizes!r}:\n"
        f"    for form in {forms!r}:\n"
        f"        vec = v.PyramidVectorEnv(n, rules={rules!r}, obs_mode=form)\n"
        f"        runs = [vector_steps(vec, {steps}, r) for r in range({repeats})]\n"
        "        out[f'numpy {n} {form}'] = statistics.median(runs)\n"
        "print(json.dumps(out))\n"
    )
    env = dict(os.environ, PYTHONPATH=tree)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    if done.returncode:
        print(done.stderr[-2000:], file=sys.stderr)
        return {}
    return json.loads(done.stdout.strip().splitlines()[-1])


COLD = """
import sys, time
c0 = time.process_time()
import pyramid_env.env as E
c1 = time.process_time()
if sys.argv[1] == "vector":
    E.PyramidVectorEnv(256, obs_mode="onehot").reset(seed=0)
else:
    env = E.PyramidEnv(obs_mode="onehot")
    env.reset(seed=0)
    env.step(env.legal_actions()[0])
print(c1 - c0, time.process_time() - c1)
"""


def cold_start(what: str) -> tuple[float, float, float]:
    """CPU s of the import and of ``what``'s first use with numba's cache cold, then warm.

    ``what``: ``"single"`` (``PyramidEnv`` reset and one step) or ``"vector"`` (a first reset of
    256 games); each in a child process whose ``NUMBA_CACHE_DIR`` is a new empty folder.
    """
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        runs = []
        for _ in range(2):  # cold, then warm from the cache the first run wrote
            cmd = [sys.executable, "-c", COLD, what]
            done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
            runs.append([float(x) for x in done.stdout.split()])
    return runs[0][0], runs[0][1], runs[1][1]


def renamed_ref(ref: str, into: str) -> bool:
    """``ref``'s package extracted into ``into`` as ``pyramid_env_ref`` (False if missing).

    Every ``pyramid_env`` name in its sources becomes ``pyramid_env_ref`` (its module
    ``env/pyramid_env.py`` too); its ``jit`` does not register numba's ``bit_length`` and
    ``bit_count`` again (numba's registries are global: this package's serve both).
    """
    import re

    if not extract(ref, into):
        return False
    pkg = Path(into) / "pyramid_env"
    for path in pkg.rglob("*.py"):
        text = re.sub(r"\bpyramid_env\b", "pyramid_env_ref", path.read_text())
        if path.name == "jit.py":
            for name in ("bit_length", "bit_count"):
                text = text.replace(f'@overload_method(types.Integer, "{name}")', "")
        path.write_text(text)
    (pkg / "env" / "pyramid_env.py").rename(pkg / "env" / "pyramid_env_ref.py")
    pkg.rename(Path(into) / "pyramid_env_ref")
    return True


def ab_blocks(ref: str, rules: str, sizes: list[int], forms: list[str], blocks: int,
              size: int) -> None:  # fmt: skip
    """Print this vector env's steps/s against ``pyramid_env_ref``'s, in alternated blocks.

    Runs in the child process :func:`against` starts, with ``pyramid_env_ref`` importable.
    """
    from pyramid_env_ref.env import PyramidVectorEnv as RefEnv

    from pyramid_env.env import PyramidVectorEnv

    for n in sizes:
        for form in forms:
            mode, _, dtype = form.partition(":")
            kw = {"rules": rules, "obs_mode": mode, "obs_dtype": dtype or "float32"}
            envs = {"ref": RefEnv(n, **kw), "this": PyramidVectorEnv(n, **kw)}
            infos = {k: v.reset(seed=0)[1] for k, v in envs.items()}
            rngs = {k: np.random.default_rng(1) for k in envs}
            spent: dict[str, list[float]] = {"ref": [], "this": []}
            for b in range(blocks + 1):  # block 0 of each: warm-up, not counted
                for k in ("ref", "this") if b % 2 == 0 else ("this", "ref"):
                    t = 0.0
                    for _ in range(size):
                        m = infos[k]["action_mask"]
                        actions = (rngs[k].random(m.shape) * m).argmax(axis=1)
                        start = clock()
                        infos[k] = envs[k].step(actions)[4]
                        t += clock() - start
                    spent[k].append(t)
            old, new = spent["ref"][1:], spent["this"][1:]
            pairs = [o / t for o, t in zip(old, new, strict=True)]
            steps = n * size * blocks
            print(
                f"vector {n} {form}: {ref} {steps / sum(old):,.0f}, this "
                f"{steps / sum(new):,.0f} steps/s; x{sum(old) / sum(new):.3f} in total, "
                f"median pair x{statistics.median(pairs):.3f}, this ahead in "
                f"{sum(p > 1 for p in pairs)} of {blocks}",
                flush=True,
            )


def against(ref: str, rules: str, sizes: list[int], forms: list[str], blocks: int,
            size: int) -> None:  # fmt: skip
    """:func:`ab_blocks` in a child process that imports ``ref``'s package renamed."""
    with tempfile.TemporaryDirectory() as tree:
        if not renamed_ref(ref, tree):
            print(f"(no git ref {ref!r})")
            return
        code = (
            "import sys\n"
            f"sys.path.insert(0, {tree!r})\n"
            f"sys.path.insert(1, {str(ROOT)!r})\n"
            "from experiments.bench_env import ab_blocks\n"
            f"ab_blocks({ref!r}, {rules!r}, {sizes!r}, {forms!r}, {blocks}, {size})\n"
        )
        subprocess.run([sys.executable, "-c", code], check=False)


def extract(ref: str, into: str) -> bool:
    """``ref``'s package folder extracted into ``into`` (False if git or the ref is missing)."""
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", ref, "pyramid_env"], capture_output=True
        )
        if archive.returncode:
            return False
        subprocess.run(["tar", "-x", "-C", into], input=archive.stdout, check=True)
    except (OSError, subprocess.CalledProcessError):
        return False
    return True


def main(argv: list[str] | None = None) -> dict[str, int]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="relaxed")
    p.add_argument("--steps", type=int, default=100_000)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--vector", type=int, nargs="*", default=[64, 256, 1024])
    p.add_argument(
        "--forms",
        nargs="+",
        default=["dict", "flat", "onehot", "counts", "compact", "onehot:uint8"],
        help="observation forms: an obs_mode, or obs_mode:obs_dtype",
    )
    p.add_argument("--numpy-ref", default=NUMPY_REF)
    p.add_argument("--json", help="write the figures to this file too")
    p.add_argument(
        "--cold", action="store_true", help="time the first use with numba's cache cold, only"
    )
    p.add_argument("--against", help="a git ref: its vector env against this one, in-process")
    p.add_argument("--blocks", type=int, default=80)
    p.add_argument("--block-steps", type=int, default=40)
    args = p.parse_args(argv)
    if args.against:
        against(args.against, args.rules, args.vector, args.forms, args.blocks, args.block_steps)
        return {}
    if args.cold:
        for what in ("single", "vector"):
            imp, cold, warm = cold_start(what)
            print(
                f"{what}: import {imp:.2f} s, first use cold {cold:.2f} s, warm {warm:.2f} s (CPU)"
            )
        return {}
    from pyramid_env.env import PyramidEnv, PyramidVectorEnv

    rules, steps, reps = args.rules, args.steps, args.repeats

    def median(fn, *a) -> int:
        return round(statistics.median(fn(*a, r) for r in range(reps)))

    out: dict[str, int] = {}
    out["engine"] = median(engine_steps, rules, steps)
    out["PyramidEnv"] = median(env_steps, lambda: PyramidEnv(rules, obs_mode="onehot"), steps)
    out["gym.make PyramidEnv"] = median(
        env_steps, lambda: gym.make("pyramid_env:PyramidSolitaire-v0", rules=rules,
                                    obs_mode="onehot"), steps,
    )  # fmt: skip
    out["CartPole-v1 raw"] = median(
        cartpole_steps, lambda: gym.make("CartPole-v1").unwrapped, steps
    )
    out["gym.make CartPole-v1"] = median(cartpole_steps, lambda: gym.make("CartPole-v1"), steps)
    for n in args.vector:
        for form in args.forms:
            mode, _, dtype = form.partition(":")
            vec = PyramidVectorEnv(n, rules=rules, obs_mode=mode, obs_dtype=dtype or "float32")
            out[f"vector {n} {form}"] = median(vector_steps, vec, steps)
    if args.vector:
        n = min(args.vector)
        sync = gym.vector.SyncVectorEnv(
            [lambda: gym.make("pyramid_env:PyramidSolitaire-v0", rules=rules, obs_mode="onehot")]
            * n
        )
        out[f"sync {n} onehot"] = median(vector_steps, sync, steps)
        with tempfile.TemporaryDirectory() as tree:
            if extract(args.numpy_ref, tree):
                forms = [f for f in args.forms if ":" not in f and f != "compact"]  # theirs
                old = numpy_child(tree, rules, args.vector, forms, steps, reps)
                out |= {k: round(v) for k, v in old.items()}
            else:
                print(f"(no git ref {args.numpy_ref!r}: the numpy vector env is not timed)")
    cart = out["gym.make CartPole-v1"]
    for name, sps in out.items():
        note = ""
        if name.startswith("vector "):
            base = out.get("numpy " + name[len("vector ") :])
            note = f"  x{sps / base:.2f} numpy" if base else ""
        elif "PyramidEnv" in name or name == "engine":
            note = f"  x{sps / cart:.2f} gym.make CartPole"
        print(f"{name:>24}: {sps:>10,} steps/s{note}")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    main()
