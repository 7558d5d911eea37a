"""What the plotting scripts share: writing a figure, reference lines of agents' win rates.

Neither function imports matplotlib: they call the methods of the figure or axes given, so the
package needs matplotlib (the ``bench`` or ``train`` extra) only where a script draws.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pyramid_env.evaluation import evaluate

if TYPE_CHECKING:
    import matplotlib.pyplot as plt


def reference_lines(ax: plt.Axes, rules: str, seeds: str, names: list[str]) -> None:
    """Dashed lines of the named agents' win rates on the same val deals, evaluated here."""
    for name, style in zip(names, ("--", (0, (5, 1, 1, 1)), ":", "-."), strict=False):
        rate = evaluate(name, rules, seeds, workers=2).summary()["win_rate"]
        ax.axhline(100 * rate, ls=style, color="grey")
        ax.text(0.01, 100 * rate + 0.8, f"{name} {rate:.1%}", fontsize=8, color="grey",
                transform=ax.get_yaxis_transform())  # fmt: skip


def save(fig: plt.Figure, out: Path) -> Path:
    """Write the figure (its folder made if needed) and print where."""
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=100)
    print(out)
    return out
