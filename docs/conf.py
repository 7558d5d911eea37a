"""Sphinx configuration of the pyramid-env docs.

Built with ``sphinx-build -W --keep-going -b html docs docs/_build/html`` (the ``docs`` extra).

Sphinx with the furo theme and MyST (Markdown pages) is what the Gymnasium family builds its
sites with (Gymnasium, MiniGrid, PettingZoo): the pages stay Markdown, readable on GitHub and
run by the tests (tests/test_readme.py executes every code block), and the API reference comes
from the Google-style docstrings through autodoc and napoleon.
"""

project = "pyramid-env"
author = "pyramid-env contributors"
copyright = "2026, pyramid-env contributors"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}  # api.rst: autodoc
exclude_patterns = ["_build"]
root_doc = "index"

# MyST: directives are fenced with colons (:::{toctree}), so a ``` fence is always a code block,
# which the tests run; "## Heading" gets an anchor to link to (page.md#heading).
myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3

# autodoc: members in source order, documented ones only; the docstrings are Google style.
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": True}
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_ivar = True  # "Attributes:" as fields: a NamedTuple's fields are not documented twice

html_theme = "furo"
html_title = "pyramid-env"
