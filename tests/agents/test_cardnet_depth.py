"""The card network's depth: blocks grown on a trained network, and blocks applied again."""

import numpy as np
import pytest

from tests.agents.test_cardnet import _positions

torch = pytest.importorskip("torch")

from pyramid_env.agents.cardnet_torch import build, export, grow, tokens, twin  # noqa: E402


def test_a_grown_network_starts_as_the_same_function_and_its_new_blocks_learn():
    counts, packed = _positions("msc")
    torch.manual_seed(2)
    net = build("rel", "small")
    with torch.no_grad():
        for name, p in net.named_parameters():
            if name.endswith(".rel"):
                p.normal_(0.0, 2.0)
        before = net(tokens(torch.as_tensor(packed))).numpy()
    deep = grow(net, 4)
    assert len(deep.blocks) == deep.meta["layers"] == 4
    out = deep(tokens(torch.as_tensor(packed)))
    np.testing.assert_allclose(out.detach().numpy(), before, atol=1e-5)
    out.square().mean().backward()  # the new blocks' output projections get a gradient
    for i in (2, 3):
        assert deep.blocks[i].out.weight.grad.abs().sum() > 0
        assert deep.blocks[i].ff2.weight.grad.abs().sum() > 0
    with torch.no_grad():  # the numpy twin plays the grown depth
        for p in deep.parameters():
            p.add_(0.05 * torch.randn_like(p))
        expected = deep(tokens(torch.as_tensor(packed))).numpy()
    shipped = export(deep, {})
    assert shipped.meta["layers"] == 4
    np.testing.assert_allclose(shipped.forward(counts), expected, atol=1e-4)
    with pytest.raises(ValueError, match="layers=3: the network has 4"):
        grow(deep, 3)


def test_a_looped_network_applies_its_blocks_again_and_its_twin_does_too():
    counts, packed = _positions("msc")
    torch.manual_seed(3)
    looped = build("tally", "small", loops=3)
    once = build("tally", "small")
    assert sum(p.numel() for p in looped.parameters()) == sum(p.numel() for p in once.parameters())
    with torch.no_grad():
        for p in looped.parameters():
            p.add_(0.05 * torch.randn_like(p))
        once.load_state_dict(looped.state_dict())
        h = tokens(torch.as_tensor(packed))
        expected = looped(h).numpy()
        assert np.abs(once(h).numpy() - expected).max() > 0.01  # three passes, not one
        unrolled = build("tally", "small", layers=6)  # the same blocks, written out
        weights = looped.state_dict()
        for i in range(6):
            block = unrolled.blocks[i].state_dict()
            unrolled.blocks[i].load_state_dict({k: weights[f"blocks.{i % 2}.{k}"] for k in block})
        unrolled.load_state_dict(
            {k: v for k, v in weights.items() if not k.startswith("blocks.")}, strict=False
        )
        np.testing.assert_allclose(unrolled(h).numpy(), expected, atol=1e-5)
    shipped = export(looped, {})
    assert shipped.meta["loops"] == 3 and "loops" not in export(once, {}).meta
    np.testing.assert_allclose(shipped.forward(counts), expected, atol=1e-4)
    with torch.no_grad():  # and back: the shipped file's twin loops as often
        np.testing.assert_allclose(twin(shipped)(h).numpy(), expected, atol=1e-5)
    with pytest.raises(ValueError, match="loops=0"):
        build("tally", "small", loops=0)
