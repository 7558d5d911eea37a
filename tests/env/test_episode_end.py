"""Episode ends: the idle-pass truncation that stops draw-and-recycle loops, and max_steps."""

import numpy as np
import pytest

from pyramid_env.env import PyramidEnv


def draw_only(env, limit=2000):
    """Draw or recycle until the episode ends; ``(steps, terminated, truncated, info)``."""
    env.reset(seed=0, options={"deal": 3})
    for step in range(1, limit + 1):
        mask = env.action_masks()
        action = int(np.flatnonzero(mask[:2] if mask[:2].any() else mask)[0])
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return step, terminated, truncated, info
    raise AssertionError("the episode did not end")


def test_two_idle_passes_truncate_under_unlimited_passes():
    steps, terminated, truncated, info = draw_only(PyramidEnv("relaxed", terminate_on_dead=False))
    assert (steps, terminated, truncated) == (50, False, True)  # (24 draws + recycle) x 2
    assert info["truncated_by"] == "idle_passes" and info["pass"] == 3


def test_a_removal_starts_the_count_again():
    env = PyramidEnv("relaxed", terminate_on_dead=False, max_idle_passes=1)
    env.reset(options={"deal": 3})
    removed = False
    for _ in range(200):
        mask = env.action_masks()
        removals = np.flatnonzero(mask[2:]) + 2
        # one removal as soon as there is one, then only draws and recycles
        action = (
            int(removals[0]) if len(removals) and not removed else int(np.flatnonzero(mask[:2])[0])
        )
        removed |= action >= 2
        _, _, terminated, truncated, info = env.step(action)
        if truncated or terminated:
            break
    assert removed and truncated and info["truncated_by"] == "idle_passes"
    # the pass of the removal does not count: truncated at the end of the next full pass
    assert info["pass"] == 3


def test_off_with_none_and_never_under_a_pass_limit():
    steps, _, truncated, info = draw_only(
        PyramidEnv("relaxed", terminate_on_dead=False, max_idle_passes=None, max_steps=300)
    )
    assert (steps, truncated, info["truncated_by"]) == (300, True, "max_steps")
    _, terminated, truncated, info = draw_only(PyramidEnv("three-pass"))
    assert terminated and not truncated and "truncated_by" not in info


@pytest.mark.parametrize("value", [0, -1, 1.5, "2", True])
def test_bad_max_idle_passes_is_refused(value):
    with pytest.raises(ValueError, match="max_idle_passes"):
        PyramidEnv(max_idle_passes=value)
