import math

from experiments.opening_stats import REFERENCE, run


def test_opening_stats_match_001_within_sampling_error():
    n = 4000
    stats = run(n)
    for k, ref in REFERENCE["share_by_plays"].items():
        se = math.sqrt(ref * (1 - ref) / n)
        assert abs(stats.share_by_plays[k] - ref) < 4 * se, (k, stats.share_by_plays[k], ref)
    se = math.sqrt(0.961 * 0.039 / n)
    assert abs(stats.share_direct_partner - 0.961) < 4 * se
    assert stats.share_deep_partner == 1.0
    assert abs(stats.mean_plays - 2.06) < 0.06
