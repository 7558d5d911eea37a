"""The experiment scripts, each run as a module: ``python -m experiments.NAME``.

What they share lives in the package (:mod:`pyramid_env.lab`, the agents); no script imports
another.
"""
