"""What several test modules share: builders of tiny checkpoints and hostile files, independent references
(mpmath, plain numpy), the soundness generator and judge, and the repository's root. A test module imports
from here, never from another test module (tests/unit/project/test_tests_layout.py)."""
