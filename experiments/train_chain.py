r"""One command for a card network's whole recipe: its data, then each training stage, seeded.

    python -m experiments.train_chain --config configs/cards_relaxed.toml --seed 1 \
        --ship cards-relaxed
    python -m experiments.train_chain --config configs/cards_relaxed.toml --set scale=0.01  # smoke

The config's ``[[stage]]`` tables run in order, each a ``card_data`` or ``train_cards``
command line written as in ``experiments/reproduce.sh``, with ``{seed}``, ``{run}`` (the run
folder) and ``{data}`` filled in; ``scale`` multiplies every ``--deals``, ``--steps`` and
``--positions``, and the deal count of every ``--eval-seeds`` (``val[:500]`` is ``val[:5]``
at 0.01: a smoke run's untrained networks need not play 500 games), its data in a folder of
their own. A data file already
written by the same command is kept (card_data writes whole files or none, and what made
each; one made by another command is refused: delete it to make it again) and
``train_cards`` keeps its finished runs, so a stopped chain goes on where it was. A training
stage's network is copied to ``{run}/<stage>.npz`` for the next to start from; the run
folder's ``stages.jsonl`` logs each stage's command line and seconds.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from pyramid_env.lab.config import add_config_args, config_from_args
from pyramid_env.lab.shipping import ship

ROOT = Path(__file__).parents[1]
COMMANDS = ("card_data", "train_cards")
KEYS, STAGE_KEYS = {"name", "seed", "data", "scale", "stage"}, {"name", "command", "args"}
SCALED = ("--deals", "--steps", "--positions")
FIRST_DEALS = re.compile(r"^(\w+)\[:(\d+)\]$")  # a seed spec that names its count: val[:500]


def scaled_seeds(spec: str, scale: float, stage: str) -> str:
    """``spec``'s first deals times ``scale`` (at least one): ``val[:500]`` at 0.01 is ``val[:5]``.

    Raises:
        SystemExit: a spec that does not name its count (``set[:N]``), which no scale can shrink.
    """
    if not (m := FIRST_DEALS.match(spec)):
        raise SystemExit(f"stage {stage} --eval-seeds {spec!r}: with a scale, a spec of the first "
                         "deals of a set ('val[:500]'), which the scale shrinks")  # fmt: skip
    return f"{m[1]}[:{max(1, round(int(m[2]) * scale))}]"


def stages(cfg: dict[str, Any], seed: int, run: Path) -> list[tuple[str, str, list[str]]]:
    """The config's stages as ``(name, command, argv)``, checked and filled in.

    Raises:
        SystemExit: a key the config does not have, a stage without a known command, a name
            used twice, an argument that is not a string or names an unknown ``{field}``, a
            ``scale`` not above 0; the message names the field and what is allowed.
    """
    if unknown := set(cfg) - KEYS:
        raise SystemExit(f"{', '.join(sorted(unknown))}: not a key of the config ({sorted(KEYS)})")
    scale = cfg.get("scale", 1.0)
    if not isinstance(scale, int | float) or not scale > 0:
        raise SystemExit(f"scale = {scale!r}: a number above 0 (1: the recipe as written)")
    data = ROOT / cfg.get("data", "data") / (f"scale-{scale}" if scale != 1 else "")  # ROOT's
    out, seen = [], set()
    for i, st in enumerate(cfg.get("stage", [])):
        if unknown := set(st) - STAGE_KEYS:
            raise SystemExit(f"stage {i} {', '.join(sorted(unknown))}: not a key of a stage "
                             f"({sorted(STAGE_KEYS)})")  # fmt: skip
        name, cmd, args = st.get("name"), st.get("command"), st.get("args")
        if cmd not in COMMANDS:
            raise SystemExit(f"stage {i} command = {cmd!r}: one of {', '.join(COMMANDS)}")
        if not isinstance(name, str) or not name or name in seen:
            raise SystemExit(f"stage {i} name = {name!r}: a name no other stage has")
        if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
            raise SystemExit(f"stage {name} args = {args!r}: a list of strings")
        seen.add(name)
        try:
            argv = [a.format(seed=seed, run=run, data=data) for a in args]
        except (KeyError, IndexError, ValueError) as err:
            raise SystemExit(f"stage {name} args: {err!r} is not one of {{seed}}, {{run}}, "
                             "{data}") from err  # fmt: skip
        for k, a in enumerate(argv[:-1]):
            if a in SCALED and scale != 1:
                argv[k + 1] = str(max(1, round(int(argv[k + 1]) * scale)))
            if a == "--eval-seeds" and scale != 1:
                argv[k + 1] = scaled_seeds(argv[k + 1], scale, name)
        out.append((name, cmd, argv))
    if not out:
        raise SystemExit("stage: the config lists no [[stage]] to run")
    return out


def check_kept(name: str, argv: list[str], out: Path) -> None:
    """Refuse a data file kept from a run of another command than this stage's.

    ``card_data`` writes into each file what made it (its ``recipe``: every argument but
    ``--workers`` and ``--out``); a file the stage would make differently (other deals, another
    teacher, other rules) must not be trained on as if it were this stage's. A file made before
    files recorded it is kept with a warning.

    Raises:
        SystemExit: naming the file and each argument that differs, the file's and the stage's.
    """
    import numpy as np

    from pyramid_env.engine.rules import get_rules
    from pyramid_env.lab.card_data import parser, recipe

    args = parser().parse_args(argv)
    want = json.loads(recipe(args, get_rules(args.rules)))
    with np.load(out) as d:
        have = json.loads(str(d["recipe"])) if "recipe" in d.files else None
    if have is None:
        print(f"[{name}] {out}: made before data files recorded their command; kept unchecked",
              file=sys.stderr)  # fmt: skip
        return
    if differ := sorted(k for k in set(want) | set(have) if want.get(k) != have.get(k)):
        said = ", ".join(f"{k} {have.get(k)!r} (the file) against {want.get(k)!r}" for k in differ)
        raise SystemExit(f"stage {name}: {out} was made by another command: {said}; delete it "
                         "to make it again, or give the stage another --out")  # fmt: skip


def run_stage(name: str, cmd: str, argv: list[str], run: Path) -> None:
    """Run one stage in its own process unless its data are there; a network is copied.

    Raises:
        SystemExit: the stage failed, or a training stage made other than one network.
    """
    out = Path(argv[argv.index("--out") + 1]) if "--out" in argv else None
    if cmd == "card_data" and out is not None and out.exists():
        check_kept(name, argv, out)
        return  # written whole or not at all, by this very command: kept
    done = subprocess.run([sys.executable, "-m", f"experiments.{cmd}", *argv], cwd=ROOT)
    if done.returncode:
        raise SystemExit(f"stage {name}: {cmd} exited with {done.returncode}")
    if cmd == "card_data":
        return
    nets = sorted(out.glob("*/net.npz")) if out is not None else []
    if len(nets) != 1:
        raise SystemExit(f"stage {name}: {len(nets)} networks in {out}; a stage trains one "
                         "(one --arch, one --seeds, one --positions)")  # fmt: skip
    shutil.copyfile(nets[0], run / f"{name}.npz")


def main(argv: list[str] | None = None) -> Path:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_config_args(p, ROOT / "configs" / "cards_relaxed.toml", ROOT / "runs", steps=False)
    p.add_argument("--ship", help="copy the last stage's network to agents/trained/NAME.npz")
    args = p.parse_args(argv)
    cfg = config_from_args(args)
    seed = cfg.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        p.error(f"seed = {seed!r}: a whole number, 0 or more")
    run = args.runs.resolve() / f"{cfg.get('name', args.config.stem)}-s{seed}"
    plan = stages(cfg, seed, run)
    if plan[-1][1] != "train_cards":
        p.error(f"stage {plan[-1][0]}: the last stage trains the network (command train_cards)")
    run.mkdir(parents=True, exist_ok=True)
    (run / "config.json").write_text(json.dumps(cfg, indent=1))
    net = run / f"{plan[-1][0]}.npz"
    with open(run / "stages.jsonl", "a") as log:
        for name, cmd, stage_argv in plan:
            t0 = time.time()
            print(f"[{name}] {cmd} {' '.join(stage_argv)}", flush=True)
            run_stage(name, cmd, stage_argv, run)
            row = {"stage": name, "command": cmd, "argv": stage_argv}
            log.write(json.dumps(row | {"seconds": round(time.time() - t0, 1)}) + "\n")
            log.flush()
    if args.ship:
        ship(net, args.ship)
    print(f"{run}: {net}")
    return net


if __name__ == "__main__":
    main()
