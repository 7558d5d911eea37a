"""Opening statistics of our deals under ``two-card``, against rulebook 001's own count.

    python -m experiments.opening_stats --deals 100000

001 (Poozee) dealt its deals #1..#100,000 and counted the plays each opening layout offers
before any draw (Kings and 13-pairs among the bottom row): mean 2.06, and 0: 7.4%, 1: 23.6%,
2: 35.4%, 3: 24.5%, 4+: 9.1%; in 96.1% of deals some card rests directly on its own partner,
and in all of them some card lies above a partner further down. Our deals are different
shuffles, so the figures must agree within sampling error, not exactly: a check of the shuffle's
uniformity and of the opening move generator together. The count is the number of legal
removals at the opening, read from the engine.

Writes a JSON and a markdown table to ``--out`` (default ``results/opening_stats``).
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path

from pyramid_env.engine import MoveKind, State, legal_moves
from pyramid_env.engine.cards import RANK, TARGET
from pyramid_env.engine.layout import BELOW_MASK, COVERED_BY, SLOTS

# 001's published figures for its deals #1..#100,000.
REFERENCE = {
    "mean_plays": 2.06,
    "share_by_plays": {"0": 0.074, "1": 0.236, "2": 0.354, "3": 0.245, "4+": 0.091},
    "share_direct_partner": 0.961,
    "share_deep_partner": 1.0,
}


@dataclass
class OpeningStats:
    deals: int
    mean_plays: float
    share_by_plays: dict[str, float] = field(default_factory=dict)
    share_direct_partner: float = 0.0
    share_deep_partner: float = 0.0


def opening_plays(s: State) -> int:
    """Legal removals at the opening (Kings and pairs; nothing is drawn yet)."""
    return sum(m.kind >= MoveKind.KING for m in legal_moves(s))


def has_direct_partner(cards: tuple[int, ...]) -> bool:
    """Some pyramid card lies directly on (covers) a card it pairs with."""
    return any(
        RANK[cards[s]] + RANK[cards[t]] == TARGET for s in range(SLOTS) for t in COVERED_BY[s]
    )


def has_deep_partner(cards: tuple[int, ...]) -> bool:
    """Some pyramid card lies above a partner further down (covers it through other cards)."""
    return any(
        RANK[cards[s]] + RANK[cards[t]] == TARGET
        for s in range(SLOTS)
        for t in range(SLOTS)
        if BELOW_MASK[s] >> t & 1 and t not in COVERED_BY[s]
    )


def run(deals: int, first: int = 0) -> OpeningStats:
    """Count over deals ``first .. first + deals - 1``."""
    counts = {"0": 0, "1": 0, "2": 0, "3": 0, "4+": 0}
    total = direct = deep = 0
    for n in range(first, first + deals):
        s = State(n, "two-card")
        plays = opening_plays(s)
        total += plays
        counts[str(plays) if plays < 4 else "4+"] += 1
        direct += has_direct_partner(s.deal.pyramid)
        deep += has_deep_partner(s.deal.pyramid)
    return OpeningStats(
        deals=deals,
        mean_plays=total / deals,
        share_by_plays={k: v / deals for k, v in counts.items()},
        share_direct_partner=direct / deals,
        share_deep_partner=deep / deals,
    )


def table(stats: OpeningStats) -> str:
    """Markdown: ours vs 001, with the binomial standard error of each share."""
    rows = ["| figure | ours | 001 | ours − 001 in SE |", "|---|---|---|---|"]

    def share_row(name: str, ours: float, ref: float) -> str:
        # Two independent samples of 100,000 (ours and 001's): SE of the difference.
        se = math.sqrt(ref * (1 - ref) / stats.deals + ref * (1 - ref) / 100_000) or 1e-9
        return f"| {name} | {ours:.1%} | {ref:.1%} | {(ours - ref) / se:+.1f} |"

    rows.append(
        f"| mean plays at the opening | {stats.mean_plays:.3f} | 2.06 | (2.06 is rounded) |"
    )
    for k, ref in REFERENCE["share_by_plays"].items():
        rows.append(share_row(f"deals with {k} plays", stats.share_by_plays[k], ref))
    rows.append(share_row("a card directly on its partner", stats.share_direct_partner, 0.961))
    rows.append(
        f"| a card above a partner further down | {stats.share_deep_partner:.2%} | 100% | |"
    )
    return "\n".join(rows)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=100_000)
    p.add_argument("--first", type=int, default=0, help="first deal number")
    p.add_argument("--out", type=Path, default=Path("results/opening_stats"))
    args = p.parse_args()
    stats = run(args.deals, args.first)
    md = table(stats)
    print(f"deals {args.first}..{args.first + args.deals - 1} under two-card\n{md}")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "opening_stats.json").write_text(json.dumps(asdict(stats), indent=1) + "\n")
    (args.out / "opening_stats.md").write_text(md + "\n")


if __name__ == "__main__":
    main()
