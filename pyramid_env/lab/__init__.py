"""What the experiment scripts share: configs and their arguments, shipping, PPO, analyses.

The scripts in the repo's ``experiments/`` (run as ``python -m experiments.NAME``) import these
modules and never each other. Nothing in the package imports ``experiments``.

- :mod:`~pyramid_env.lab.config`: a TOML config with command-line overrides, the arguments
  the training scripts share.
- :mod:`~pyramid_env.lab.shipping`: a trained policy copied into the shipped agents.
- :mod:`~pyramid_env.lab.ppo`: MaskablePPO training with evaluation on the val deals (the
  ``train`` extra).
- :mod:`~pyramid_env.lab.figures`: writing a figure, reference lines of agents' win rates.
- :mod:`~pyramid_env.lab.fatal`: an agent's first fatal move on a deal.
- :mod:`~pyramid_env.lab.verdicts`: solver verdicts of a chunk of deals, for sweeps.
- :mod:`~pyramid_env.lab.tables`: Markdown tables, as the scripts print them.
"""
