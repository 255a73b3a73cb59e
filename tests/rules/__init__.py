"""Rules tests (a package, so that tests/bots may reuse a module name such as test_pawn_soccer)."""
