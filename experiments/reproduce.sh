#!/usr/bin/env bash
# Every command behind the README's agent and learning figures, in order (2-core CPU machine).
# Run from the repo root in an env with `pip install -e ".[dev,train]"`. Training runs write to
# runs/ (git-ignored); `--ship NAME` puts the chosen policy in agents/trained/.
set -euo pipefail

# Solver labels for the val and test deals, every preset (about 13 min on 2 cores).
python experiments/make_labels.py
python experiments/make_labels.py --rules one-pass --shortest-limit 60  # shortest lengths, one-pass only

# Greedy weights, chosen on val (never on test).
python experiments/tune_greedy.py --rules relaxed msc --seeds val

# Learned agents: MaskablePPO, and imitation of the solver (BC + DAgger) then PPO from it.
python experiments/train_ppo.py --config configs/ppo_relaxed.toml --ship ppo-relaxed
python experiments/train_bc.py --config configs/bc_relaxed.toml --ship bc-relaxed \
    --ship-finetuned bc-ppo-relaxed
python experiments/train_ppo.py --config configs/ppo_msc.toml --ship ppo-msc
python experiments/train_bc.py --config configs/bc_msc.toml --ship bc-msc --ship-finetuned bc-ppo-msc
# A value network on the solver's labels, for the two-move lookahead (relaxed).
python experiments/train_value.py --config configs/value_relaxed.toml --out runs/value-relaxed \
    --ship value-relaxed

# The benchmark tables (test deals 0..999), and the learning curves.
pyramid-env benchmark --rules relaxed
pyramid-env benchmark --rules msc
python experiments/plot_curves.py runs/*/eval.csv runs/*/*/eval.csv --out experiments/figures/curves.png

# Honest play: the solver against scout and pimc per preset (about 25 min on 2 cores), and
# pimc's win rate against its samples per decision.
python experiments/hidden_cost.py --rules msc two-card three-pass --seeds "test[:500]"
python experiments/hidden_cost.py --rules two-pass one-pass --seeds "test[:200]"
python experiments/hidden_cost.py --rules relaxed unlimited --seeds "test[:1000]"
python experiments/pimc_curve.py --rules one-pass two-pass --seeds "test[:100]" --samples 4 8 16
