"""paper_checks: a verdict for each claim of the paper, the ``specbound`` CLI, reports and figures."""
