r"""CMAB-T problem instances and the data-collecting distributions that log them."""
