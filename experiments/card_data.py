"""Training positions at scale, each legal move labelled by the solver: won or lost after it.

    python -m experiments.card_data --rules msc --deals 20000 --out data/msc.npz

A behaviour policy (the teacher ``solver-greedy``; ``--pimc N``, an honest teacher: pimc's
search; ``--scout``, an honest teacher that draws the first pass through, as ``scout`` does,
and plays ``solver-greedy`` once every card is seen; or ``--behaviour NET``, a card network,
for DAgger) plays ``train`` deals with a random
move at a share ``eps`` of its turns; at each winnable position every legal move gets the
solver's verdict after it, and the teacher's move is kept. The env replays each game, so every
observation is a player's. The method: docs/learning.md, "A network over the cards". The
``.npz``: ``obs`` ``(N, 122)`` int16, ``legal`` and ``wins`` (packed 327-bit masks),
``teacher``, ``deal``; with ``--rollout``, ``rollout`` (packed 327-bit: after which moves
``greedy-careful``, an honest player, goes on to win this deal); with ``--passes``, ``passes``
``(N, 327)`` uint8 (the fewest further recycles a winning move needs, 255 for the others);
with ``--line``, ``partner`` ``(N, 52)`` int8 (each card's partner in a winning line).
"""

from __future__ import annotations

import functools
import time
from typing import Any

import numpy as np

from pyramid_env.agents import Turn
from pyramid_env.agents.base import determinize, unseen
from pyramid_env.agents.baselines import CarefulAgent, GreedyAgent
from pyramid_env.agents.cardnet import CardNet, CardNetAgent
from pyramid_env.agents.honest import all_seen, scouting_move, search
from pyramid_env.engine.errors import RulesError
from pyramid_env.engine.layout import SLOTS
from pyramid_env.engine.moves import MOVES, NUM_MOVES, MoveKind
from pyramid_env.engine.rules import Rules, get_rules
from pyramid_env.engine.state import State, is_won, legal_ids
from pyramid_env.env import PyramidEnv
from pyramid_env.env import observation as ob
from pyramid_env.lab.card_data import PASS_CAP, line_partners, losing_move, parser, recipe
from pyramid_env.seeds import SEED_SETS
from pyramid_env.solver import solve, winning_line
from pyramid_env.sweep import sweep

BUDGET = 300_000  # positions per verdict; one that runs out leaves its position unlabelled
PIMC_BUDGET = 30_000  # per verdict of the honest teacher's search, as the pimc agent's
MAX_STEPS = 400


def _soft(
    s: State, known: int, legal: list[int], bits: list[bool], worlds: int, rng: np.random.Generator
) -> list[int]:
    """Per legal move, the share of the deals a player cannot tell apart still won after it.

    The true order (winnable here, or the position would not be labelled) and ``worlds`` - 1
    orders of the unseen cards drawn from ``rng``: the chance the move keeps the deal winnable
    given what the player sees, the value ``pimc`` estimates, with less noise than the one true
    order gives. Orders the solver cannot win (or tell within the budget) are left out, as the
    true order would be; a verdict after a move that runs out of budget counts as a loss (the
    true order's would drop the position). As bytes: 255 times the share.
    """
    wins = np.array(bits, float)
    n = 1
    places, cards = unseen(s, known)
    for _ in range(worlds - 1):
        world = determinize(s, places, cards, rng)
        line = winning_line(world, budget=BUDGET)
        if line is None:
            continue
        n += 1
        for i, a in enumerate(legal):
            move = MOVES[a]
            if (line and line[0] == a) or (move.kind is MoveKind.KING and move.a < SLOTS):
                wins[i] += 1
            elif winning_line(world.child(move), budget=BUDGET) is not None:
                wins[i] += 1
    return np.rint(255 * wins / n).astype(int).tolist()


def _wins(s: State) -> bool | None:
    """The solver's verdict on ``s``: True won, False lost, None too costly to tell."""
    if is_won(s):
        return True
    return solve(s, budget=BUDGET, check=False).won


def recycles_needed(s: State, cap: int = PASS_CAP) -> int | None:
    """The fewest further recycles with which ``s`` is still won: 0, 1, ... or ``cap``.

    ``s`` is a won position by the solver's verdict; the search is asked again with the passes
    cut to the current one, then one more, ... (``cap`` means that many or more; ``None``:
    a verdict too costly to tell). Where passes are unlimited a draw keeps every winnable deal
    winnable, so the verdict alone rates a draw that must go round the whole stock again as
    high as the pair that wins now; this count tells them apart.
    """
    left = s.recycles_left
    for k in range(cap):
        if left is not None and k >= left:
            return k  # as many as are left: the verdict already said it is won
        cut = s.copy()
        cut.rules = get_rules(s.rules, passes=s.recycles + k + 1)
        cut.knobs = cut.rules.knobs
        won = _wins(cut)
        if won is None:
            return None
        if won:
            return k
    return cap


def careful_wins(s: State, seen: dict[tuple[int, ...], bool]) -> bool:
    """Whether ``greedy-careful`` wins from ``s`` in this deal (within ``MAX_STEPS`` moves).

    An honest player's outcome: the agent reads only what a player knows (its tests play it on
    a view whose unseen cards are shuffled, move for move alike), so over the deals a player
    cannot tell apart these outcomes average to its win rate after the move, the value an honest
    player can act on, which the solver's verdict (true for a draw whenever the order allows
    a win later) is not. The agent is deterministic, so every position its game passes through
    shares the outcome: ``seen`` (one deal's) keeps them, and a later play-out that reaches one
    stops there.
    """
    agent = CarefulAgent()
    path = []
    won = False
    for _ in range(MAX_STEPS):
        fields = s.fields()
        if fields in seen:
            won = seen[fields]
            break
        path.append(fields)
        if is_won(s):
            won = True
            break
        legal = legal_ids(s)
        if not legal:
            break
        s = s.child(MOVES[agent.preferences(Turn(s, legal, s.left))[0]])
    for fields in path:
        seen[fields] = won
    return won


@functools.cache
def _network(path: str) -> CardNet:
    """The behaviour network, read once per worker process."""
    return CardNet.load(path)


def label_game(
    rules: Rules,
    eps: float,
    seed: int,
    n: int,
    behaviour: str | None = None,
    samples: int = 0,
    worlds: int = 0,
    rollout: bool = False,
    scout: bool = False,
    passes: int = 0,
    line: bool = False,
) -> dict[str, Any]:
    """Play deal ``n`` with the behaviour policy; label every winnable position.

    ``behaviour``: a card network's file to play instead of the teacher (it sees a player's
    ``counts`` observation and plays as in the benchmark, drawing its move where its way of
    playing is ``"sample"``). ``samples`` > 0: the teacher is honest
    (``pimc``'s search over that many orders of the unseen cards while any is unseen, greedy's
    first winning move once all are seen), its move kept even where the true order loses it.
    ``scout``: the teacher is honest another way: while a card is unseen it plays ``scout``'s
    move (a King, else draw or recycle: :func:`~pyramid_env.agents.honest.scouting_move`),
    kept even where the true order loses it, and greedy's first winning move once all are
    seen, where that move is a function of what the player sees. Under unlimited passes it
    wins every deal the solver wins; where passes are few, only what ``scout`` wins (its row
    of the hidden-cost table: under ``msc`` 0.922 of the solver's wins).
    ``worlds`` > 0: each legal move also gets a soft label (:func:`_soft`) over that many orders
    while cards are unseen (the true order's verdict once all are seen). ``rollout``: each legal
    move also gets ``greedy-careful``'s outcome after it (:func:`careful_wins`; a move the
    solver says loses is lost for it too, so only the others are played out). ``passes`` > 0: where
    every card is seen and two or more legal moves keep the deal won, each of them also gets
    :func:`recycles_needed` counted up to ``passes`` (the position is dropped where one is too
    costly to tell). ``line``: the game's own moves up to the last winnable position, then the
    solver's winning line from there (``path``, ``None`` where the solver cannot tell within its
    budget), for :func:`~pyramid_env.lab.card_data.line_partners`.

    Returns the actions played and, per position labelled, its step index, the legal ids, the
    bits of the legal ids after which the deal is still winnable, the soft labels (bytes, with
    ``worlds``), the legal ids after which ``greedy-careful`` wins (with ``rollout``) and the
    teacher's action.
    """
    rng = np.random.default_rng([seed, n])
    greedy = GreedyAgent()
    search_rng = np.random.default_rng([seed, n, 1])
    soft_rng = np.random.default_rng([seed, n, 2])
    behave_rng = np.random.default_rng([seed, n, 3])
    env = None
    if samples and scout:
        raise ValueError("samples and scout: one honest teacher, pimc's search or scouting")
    if behaviour is not None or samples or worlds or scout:
        env = PyramidEnv(rules, obs_mode="counts", max_steps=MAX_STEPS + 1, max_idle_passes=None)
        obs, _ = env.reset(options={"deal": n})
    s = State(n, rules)
    actions: list[int] = []
    steps, legals, wins, teachers, softs, rolls, recs = [], [], [], [], [], [], []
    outcomes: dict[tuple[int, ...], bool] = {}  # greedy-careful's, by position (rollout)
    winnable = _wins(s)
    cut = None  # (step, position) where a move first lost the deal
    for step in range(MAX_STEPS):
        legal = legal_ids(s)
        if not legal or is_won(s) or not winnable:
            break
        prefs = greedy.preferences(Turn(s, legal, s.left))
        teacher = prefs[0]
        known = env.known_stock() if env is not None else s.left
        scouting = scout and not all_seen(s, known)
        if scouting:  # played even where no label is had (a verdict too costly to tell)
            teacher = scouting_move(Turn(s, legal, known), greedy, search_rng)
        if winnable:
            bits = []
            for a in legal:
                move = MOVES[a]
                # A pyramid King never hurts (removing it only frees cards): no verdict needed.
                ok = True if move.kind is MoveKind.KING and move.a < SLOTS else _wins(s.child(move))
                bits.append(ok)
            rec: list[int | None] = []
            # While cards are unseen the teacher's move is no pass-count's to tell (a scouting
            # draw, or the clairvoyant's), and the cut searches there cost 30 times the rest.
            tell = passes and all_seen(s, known) and sum(map(bool, bits)) > 1
            if tell and None not in bits:
                for a, ok in zip(legal, bits, strict=True):
                    if ok:  # a recycle spends one of the passes counted from here
                        more = recycles_needed(s.child(MOVES[a]), passes)
                        turn = MOVES[a].kind is MoveKind.RECYCLE
                        rec.append(None if more is None else min(passes, more + turn))
            if None not in bits and any(bits) and None not in rec:
                steps.append(step)
                legals.append(legal)
                wins.append([a for a, ok in zip(legal, bits, strict=True) if ok])
                if not scouting:  # the scouting move is kept even where the true order loses it
                    teacher = next(a for a in prefs if a in wins[-1])
                hidden = len(legal) > 1 and not all_seen(s, known)
                if samples and hidden:
                    teacher = search(s, known, prefs, samples, PIMC_BUDGET, search_rng).action
                teachers.append(teacher)
                if worlds:
                    soft = [255 * ok for ok in bits]
                    if hidden:
                        soft = _soft(s, known, legal, bits, worlds, soft_rng)
                    softs.append(soft)
                if rollout:
                    won = [a for a in wins[-1] if careful_wins(s.child(MOVES[a]), outcomes)]
                    rolls.append(won)
                if passes:  # one winning move, or cards unseen: nothing told apart
                    recs.append(rec or [0] * len(wins[-1]))
        own = teacher
        if behaviour is not None and env is not None:
            assert sorted(env.legal_actions()) == legal  # the env plays the same game
            # as the benchmark plays it (a network that samples draws from behave_rng)
            own = CardNetAgent(_network(behaviour)).act(Turn(s, legal, known, obs), behave_rng)
        action = int(rng.choice(legal)) if rng.random() < eps else own
        if winnable and legals and steps[-1] == step:
            winnable = action in wins[-1]
        elif winnable:
            winnable = _wins(s.child(MOVES[action]))
        if not winnable and cut is None:
            cut = (step, s)
        s = s.child(MOVES[action])
        actions.append(action)
        if env is not None:
            obs = env.step(action)[0]
    game = {"actions": actions, "steps": steps, "legal": legals, "wins": wins, "teacher": teachers}
    game |= {"soft": softs} if worlds else {}
    game |= {"rollout": rolls} if rollout else {}
    if line:  # the game's won path, or its moves to the last winnable position and a line on
        step, last = (len(actions), s) if cut is None else cut
        tail = [] if is_won(last) else winning_line(last, budget=BUDGET)
        game["path"] = None if tail is None or not steps else actions[:step] + tail
    return game | ({"passes": recs} if passes else {})


def _chunk(
    rules: Rules,
    eps: float,
    seed: int,
    behaviour: str | None,
    samples: int,
    worlds: int,
    rollout: bool,
    scout: bool,
    passes: int,
    line: bool,
    deals: list[int],
) -> list[dict[str, Any]]:
    return [
        label_game(rules, eps, seed, n, behaviour, samples, worlds, rollout, scout, passes, line)
        for n in deals
    ]


def pack_obs(obs: dict[str, np.ndarray]) -> np.ndarray:
    """A dict observation with its unseen counts as 122 int16 (the pieces' order, then unseen)."""
    return np.concatenate([*(obs[k] for k, _, _ in ob.PIECES), obs["unseen"]]).astype(np.int16)


def replay(rules: Rules, deals: list[int], games: list[dict[str, Any]]) -> dict[str, np.ndarray]:
    """Each game through the env; the observation at each labelled position, as a player's."""
    env = PyramidEnv(rules, obs_mode="dict", max_steps=MAX_STEPS + 1, max_idle_passes=None)
    obs, legal, wins, teacher, deal, soft, roll, recs = [], [], [], [], [], [], [], []
    partner = []
    for n, game in zip(deals, games, strict=True):
        env.reset(options={"deal": n})
        plan = None
        if game.get("path") is not None:
            plan = line_partners(rules, n, game["path"])
        encoder = ob.Encoder(env.state, reveal_stock=False)
        labelled = dict(zip(game["steps"], range(len(game["steps"])), strict=True))
        for step, action in enumerate(game["actions"]):
            if step in labelled:
                i = labelled[step]
                assert sorted(env.legal_actions()) == game["legal"][i]
                obs.append(pack_obs(encoder.encode(env.state, env.known_stock(), True)))
                pairs = [(legal, game["legal"][i]), (wins, game["wins"][i])]
                if "rollout" in game:
                    pairs.append((roll, game["rollout"][i]))
                for dest, ids in pairs:
                    m = np.zeros(NUM_MOVES, bool)
                    m[ids] = True
                    dest.append(np.packbits(m))
                teacher.append(game["teacher"][i])
                deal.append(n)
                if "soft" in game:
                    row = np.zeros(NUM_MOVES, np.uint8)
                    row[game["legal"][i]] = game["soft"][i]
                    soft.append(row)
                if "path" in game:  # -1 throughout where no line was had
                    partner.append(np.full(52, -1, np.int8) if plan is None else plan[step])
                if "passes" in game:  # 255 where a move loses (or is not legal)
                    row = np.full(NUM_MOVES, 255, np.uint8)
                    row[game["wins"][i]] = game["passes"][i]
                    recs.append(row)
            env.step(action)
    out = {
        "obs": np.array(obs, np.int16).reshape(-1, ob.FLAT_SIZE + 13),
        "legal": np.array(legal, np.uint8).reshape(-1, 41),
        "wins": np.array(wins, np.uint8).reshape(-1, 41),
        "teacher": np.array(teacher, np.int16),
        "deal": np.array(deal, np.int64),
    }
    if games and "soft" in games[0]:
        out["soft"] = np.array(soft, np.uint8).reshape(-1, NUM_MOVES)
    if games and "rollout" in games[0]:
        out["rollout"] = np.array(roll, np.uint8).reshape(-1, 41)
    if games and "path" in games[0]:
        out["partner"] = np.array(partner, np.int8).reshape(-1, 52)
    if games and "passes" in games[0]:
        out["passes"] = np.array(recs, np.uint8).reshape(-1, NUM_MOVES)
    return out


def only_hard(data: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The positions where some legal move loses (by the verdicts), every array cut alike.

    Where they are rare (under unlimited passes most positions have no losing move), kept
    alone the deciding positions of many deals fit in the memory that every position of a few
    takes, to be drawn on with ``train_cards --hard-share`` beside a file of every position.
    """
    hard = losing_move(np.unpackbits(data["legal"], axis=1), np.unpackbits(data["wins"], axis=1))
    return {k: v[hard] for k, v in data.items()}


def generate(
    rules: Rules,
    deals: list[int],
    eps: float,
    seed: int,
    workers: int,
    behaviour: str | None = None,
    samples: int = 0,
    worlds: int = 0,
    rollout: bool = False,
    scout: bool = False,
    passes: int = 0,
    line: bool = False,
) -> dict[str, np.ndarray]:
    """Label ``deals`` on ``workers`` processes and replay them: the data set's arrays."""
    opts = (behaviour, samples, worlds, rollout, scout, passes, line)
    fn = functools.partial(_chunk, rules, eps, seed, *opts)
    games = sweep(fn, deals, workers=workers, chunk_size=50, progress="label")
    return replay(rules, deals, games)


def main(argv: list[str] | None = None) -> None:
    p = parser(__doc__.splitlines()[0])
    args = p.parse_args(argv)
    if args.pimc < 0:
        p.error(f"--pimc {args.pimc}: samples per decision, 0 (the solver-greedy teacher) or more")
    if args.pimc and args.scout:
        p.error(f"--pimc {args.pimc} and --scout: one honest teacher, pimc's search or scouting")
    if args.passes < 0:
        p.error(f"--passes {args.passes}: the recycles counted up to, 1 or more (0: none)")
    if args.soft < 0 or args.soft == 1:
        p.error(f"--soft {args.soft}: orders per position, 0 (none) or 2 or more")
    try:
        rules = get_rules(args.rules)  # a preset name becomes Rules here, once
    except RulesError as err:
        p.error(f"--rules {args.rules}: {err}")
    start = SEED_SETS["train"].start + args.first
    deals = list(range(start, start + args.deals))
    t0 = time.time()
    behaviour = str(args.behaviour) if args.behaviour else None
    opts = (behaviour, args.pimc, args.soft, args.rollout, args.scout, args.passes, args.line)
    data = generate(rules, deals, args.eps, args.seed, args.workers, *opts)
    if args.only_hard:
        data = only_hard(data)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    part = args.out.with_name(args.out.name + ".partial.npz")  # whole or absent, never half
    made = np.array(recipe(args, rules))
    np.savez_compressed(part, rules=np.array(rules.name), recipe=made, **data)
    part.replace(args.out)
    print(f"{len(data['teacher'])} positions from {len(deals)} deals in {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
