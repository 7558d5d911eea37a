"""What the experiment scripts share: configs and their arguments, shipping, PPO, analyses.

The scripts in the repo's ``experiments/`` (run as ``python -m experiments.NAME``) import these
modules and never each other; nothing in the package imports ``experiments``. The modules:
``config``, ``shipping``, ``ppo``, ``ppo_fast``, ``figures``, ``fatal``, ``verdicts``,
``tables``, ``card_data`` (each says what it holds; docs/layout.md lists them).
"""
