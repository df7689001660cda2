"""specbound's test suite: tiers by folder, shared builders in :mod:`tests.helpers` (tests/README.md)."""
