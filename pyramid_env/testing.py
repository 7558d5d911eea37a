"""Deprecated alias of :mod:`pyramid_env.engine.invariants`, kept for old imports.

The sweep's crash drill, ``squares_crashing_once``, is now :mod:`pyramid_env.fault_injection`.
"""

import warnings

from pyramid_env.engine.invariants import (  # noqa: F401
    KNOB_VARIANTS,
    check_conservation,
    check_position,
    check_rollout,
    rule_variants,
)
from pyramid_env.fault_injection import squares_crashing_once  # noqa: F401

warnings.warn(
    "pyramid_env.testing is renamed: import pyramid_env.engine.invariants (rule_variants, "
    "check_rollout, ...) or pyramid_env.fault_injection (squares_crashing_once)",
    DeprecationWarning,
    stacklevel=2,
)
